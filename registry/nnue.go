package registry

import (
	"fmt"
	"strings"

	"colony/agentdef"
	"colony/contract"
	"colony/game/ataxx"
	"colony/game/ataxx/nnab"
	"colony/models"
	"colony/nn/nnue"
)

// NNUEArch returns the nnue architecture (colony/nn/nnue) of a game's efficiently updatable
// evaluator with the given sizes: how the game's cells, players and encoder planes map onto
// the scheme. Only the games with such an evaluator have one.
func NNUEArch(game string, hidden, l1 int) (nnue.Arch, error) {
	switch game {
	case ataxx.Info.Name:
		return nnab.Arch(hidden, l1), nil
	}
	return nnue.Arch{}, fmt.Errorf("registry: game %q has no nnue evaluator", game)
}

// loadNNAB loads the nnab engine's net: o.Model (a Bacteria War nnue model file), or the
// newest embedded one.
func loadNNAB(o agentdef.EngineOptions) (*nnue.Net, error) {
	m, name, err := models.LoadNNUE(ataxx.Info.Name, ataxx.EncoderVersion, o.Model)
	if err != nil {
		return nil, err
	}
	if err := nnab.CheckModel(m); err != nil {
		return nil, fmt.Errorf("%w (%s)", err, name)
	}
	return nnue.Quantize(m, 0)
}

func newNNAB(o agentdef.EngineOptions) (*nnab.Engine, error) {
	net, err := loadNNAB(o)
	if err != nil {
		return nil, err
	}
	no := nnab.Options{Net: net, Seed: o.Seed, HashMB: o.HashMB}
	experiments := map[string]*bool{"iir": &no.IIR, "se": &no.Singular, "null": &no.Null, "nolmr": &no.NoLMR}
	for _, x := range strings.Split(o.Experiments, ",") {
		if on, ok := experiments[x]; ok {
			*on = true
		} else if x != "" {
			return nil, fmt.Errorf("nnab: unknown search experiment %q (known: iir, se, null, nolmr)", x)
		}
	}
	return nnab.New(no)
}

// EngineNet names the nnue net that the named engine of g plays with and gives its SHA-256,
// for the provenance of what the engine produces: the file at path, or the newest embedded
// net. An engine on no nnue net has none ("", "", nil), and then path must be "".
func EngineNet(g interface {
	Info() contract.Info
	Engines() []EngineInfo
}, engineName, path string) (name, sha string, err error) {
	nnueEngine := false
	for _, e := range g.Engines() {
		nnueEngine = nnueEngine || (e.Name == engineName && e.NNUE)
	}
	if !nnueEngine {
		if path != "" {
			return "", "", fmt.Errorf("engine %s reads no nnue net, so it takes no model file", engineName)
		}
		return "", "", nil
	}
	m, name, err := models.LoadNNUE(g.Info().Name, g.Info().EncoderVersion, path)
	if err != nil {
		return "", "", err
	}
	return name, m.SHA256(), nil
}
