package registry

import (
	"colony/agentdef"
	"colony/engine"
	"colony/game/slime"
	"colony/game/slime/bots"
	"colony/game/slime/koth"
)

// Slime: Territory War (docs/rules.md §3): the game package's contract plus its engines.
func init() {
	type (
		pos  = slime.Position
		move = slime.Move
		eng  = engine.Engine[pos, move]
	)
	def := &agentdef.Def[pos, move]{Def: slime.Def()}
	def.Engines = []agentdef.EngineSpec[pos, move]{
		{Name: "greedy", Doc: "the contest page's GreedySlime: the largest immediate net gain",
			New: func(agentdef.EngineOptions) (eng, error) { return bots.Greedy{}, nil }},
		{Name: "jumper", Doc: "the contest page's Jumper: the empty cell nearest the middle within two cells",
			New: func(agentdef.EngineOptions) (eng, error) { return bots.Jumper{}, nil }},
		{Name: "simplebot", Doc: "the controller's simplebot.rb: a random spread, else a random jump",
			New: func(o agentdef.EngineOptions) (eng, error) { return bots.NewSimplebot(o.Seed), nil }},
		{Name: "paranoid", Doc: "alpha-beta with the three opponents against the player to move",
			New: func(agentdef.EngineOptions) (eng, error) { return bots.NewParanoid(), nil }},
		{Name: "bestreply", Doc: "best-reply search: one opponent's most harmful move between two own moves",
			New: func(agentdef.EngineOptions) (eng, error) { return bots.NewBestReply(), nil }},
	}
	def.Fallback = "greedy"
	def.DefaultEngine = "paranoid"
	// The King-of-the-Hill program: agent -game slime 'P,row0,...' prints one move.
	def.Protocols = []agentdef.ProtocolSpec[pos, move]{{Name: koth.Name, Argv: koth.Answer}}
	Register(def)
}
