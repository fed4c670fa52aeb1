package registry

import (
	"fmt"
	"strings"

	"colony/game/ataxx"
	"colony/game/ataxx/nnab"
	"colony/games"
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
func loadNNAB(o games.EngineOptions) (*nnue.Net, error) {
	m, name, err := models.LoadNNUE(ataxx.Info.Name, ataxx.EncoderVersion, o.Model)
	if err != nil {
		return nil, err
	}
	if err := nnab.CheckModel(m); err != nil {
		return nil, fmt.Errorf("%w (%s)", err, name)
	}
	return nnue.Quantize(m, 0)
}

func newNNAB(o games.EngineOptions) (*nnab.Engine, error) {
	net, err := loadNNAB(o)
	if err != nil {
		return nil, err
	}
	no := nnab.Options{Net: net, Seed: o.Seed, HashMB: o.HashMB}
	for _, x := range strings.Split(o.Experiments, ",") {
		switch x {
		case "":
		case "iir":
			no.IIR = true
		case "se":
			no.Singular = true
		default:
			return nil, fmt.Errorf("nnab: unknown search experiment %q (known: iir, se)", x)
		}
	}
	return nnab.New(no)
}

// BootstrapNet names the net a bootstrap engine of g plays with, for the shards' provenance:
// for an engine on an nnue net (EngineInfo.NNUE) the file at path or the newest embedded net,
// with its SHA-256; for any other engine nothing (and a path is refused).
func BootstrapNet(g Game, engineName, path string) (name, sha string, err error) {
	nnueEngine := false
	for _, e := range g.Engines() {
		nnueEngine = nnueEngine || (e.Name == engineName && e.NNUE)
	}
	if !nnueEngine {
		if path != "" {
			return "", "", fmt.Errorf("-model with -bootstrap needs an engine on an nnue net, not %s", engineName)
		}
		return "", "", nil
	}
	m, name, err := models.LoadNNUE(g.Info().Name, g.Info().EncoderVersion, path)
	if err != nil {
		return "", "", err
	}
	return name, m.SHA256(), nil
}
