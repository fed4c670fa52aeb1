package registry

import (
	"fmt"

	"colony/agentdef"
	"colony/contract"
	"colony/engine"
)

// EngineFor builds the named engine of the named game exactly as the agent does (the game's
// defaults under o's set fields are the caller's business: o is used as given), with the
// game's own position and move types: the browser engine's parity test (colony/web) searches
// the same positions with it and with the WebAssembly build.
func EngineFor[P contract.Position[P, M], M contract.Move](gameName, engineName string, o agentdef.EngineOptions) (engine.Engine[P, M], error) {
	g, err := Lookup(gameName)
	if err != nil {
		return nil, err
	}
	tg, ok := g.(*game[P, M])
	if !ok {
		return nil, fmt.Errorf("registry: %s is not a game of %T", gameName, *new(P))
	}
	return tg.build(engineName, o)
}
