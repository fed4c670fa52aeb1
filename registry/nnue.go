package registry

import (
	"fmt"
	"os"
	"sync"

	"colony/agentdef"
	"colony/contract"
	"colony/engine/alphabeta"
	"colony/game/ataxx/nnab"
	"colony/models"
	"colony/nn/nnue"
)

// abOptions are the alpha-beta search options (engine/alphabeta) of the agent's settings o:
// the seed, the table size, the node budget, the time rules and the experiments, by name.
// o is checked where it was parsed (agentdef.EngineOptions.Check); an unknown experiment
// still fails here with the same text, since turning one on is a lookup by name.
func abOptions(o agentdef.EngineOptions) (alphabeta.Options, error) {
	so := alphabeta.Options{Seed: o.Seed, HashMB: o.HashMB, Nodes: o.Nodes, Time: o.TimeRules}
	if err := so.SetExperiments(o.Experiments); err != nil {
		return so, fmt.Errorf("-exp: %w", err)
	}
	return so, nil
}

// nnabNets holds the net nnab loaded last: the agent's check at start and the engine built
// after it, or a bootstrap's engine per worker, load and quantize it once and share it (a
// quantized net is read-only).
var nnabNets netCache

// netCache is one loaded net and the file it came from ("": the embedded one), with the
// file's size and time, so that a file written anew is read anew.
type netCache struct {
	mu    sync.Mutex
	key   string
	net   *nnue.Net
	loads int // nets loaded (the tests count them)
}

// load returns the net of the file at path ("": the newest embedded one), loading it when it
// is not the one held.
func (c *netCache) load(path string) (*nnue.Net, error) {
	key := path
	if path != "" {
		if st, err := os.Stat(path); err == nil {
			key = fmt.Sprintf("%s\x00%d\x00%d", path, st.Size(), st.ModTime().UnixNano())
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.net != nil && c.key == key {
		return c.net, nil
	}
	net, _, err := nnab.LoadNet(path)
	if err != nil {
		return nil, err
	}
	c.key, c.net = key, net
	c.loads++
	return net, nil
}

// checkNNAB loads nnab's net at the agent's start (its settings are checked where they are
// parsed: agentdef.EngineOptions.Check).
func checkNNAB(o agentdef.EngineOptions) error {
	_, err := nnabNets.load(o.Model)
	return err
}

func newNNAB(o agentdef.EngineOptions) (*nnab.Engine, error) {
	so, err := abOptions(o)
	if err != nil {
		return nil, err
	}
	net, err := nnabNets.load(o.Model)
	if err != nil {
		return nil, err
	}
	return nnab.New(nnab.Options{Options: so, Net: net})
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
