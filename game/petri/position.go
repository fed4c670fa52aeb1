package petri

import (
	"errors"
	"hash/fnv"
	"strings"

	"colony/contract"
)

// Position is a Game as a contract.Position: its moves are the legal actions of the cell whose
// turn it is (REST always among them), ToMove the player owning it. Apply is copy-make.
type Position struct{ G *Game }

// MaxGrid bounds the encoder grid: larger arenas play, but Encode writes only this corner.
const MaxGrid = 32

// Info is the game's static description.
var Info = contract.Info{
	Name: "petri", PlayerNames: []string{"1", "2"},
	Height: MaxGrid, Width: MaxGrid, Planes: 5, EncoderVersion: 1,
	PolicySize: 50, MaxMoves: 50, Scored: false,
}

// Start is the driver's arena, 10x4, with two 4 8 0 species under the driver's rules.
func Start() Position {
	s := Species{4, 8, 0}
	return Position{New(10, 4, DriverRules, s, s)}
}

func (p Position) LegalMoves(dst []Action) []Action {
	dst = dst[:0]
	x, y, ok := p.G.Actor()
	if !ok {
		return dst
	}
	dst = append(dst, Action{Kind: Rest})
	if p.G.Legal(x, y, Action{Kind: Explode}) {
		dst = append(dst, Action{Kind: Explode})
	}
	for _, k := range []ActKind{Move, Divide, Eat} {
		for d := range Dir(8) {
			if a := (Action{Kind: k, Dir: d}); p.G.Legal(x, y, a) {
				dst = append(dst, a)
			}
		}
	}
	for d := range Dir(8) {
		for n := int8(1); n <= 3; n++ {
			if a := (Action{Kind: Attack, Dir: d, N: n}); p.G.Legal(x, y, a) {
				dst = append(dst, a)
			}
		}
	}
	return dst
}

func (p Position) Apply(a Action) Position {
	g := p.G.Clone()
	g.Do(a)
	return Position{g}
}

func (p Position) ToMove() int     { return p.G.Player }
func (p Position) NumPlayers() int { return 2 }
func (p Position) Terminal() bool  { return p.G.Over }

func (p Position) Values() contract.Values {
	var v contract.Values
	if p.G.Over && p.G.Winner >= 0 {
		v[p.G.Winner], v[1-p.G.Winner] = 1, -1
	}
	return v
}

func (p Position) Hash() uint64 {
	h := fnv.New64a()
	h.Write([]byte(p.String()))
	for _, s := range p.G.Sq {
		h.Write([]byte{byte(s.HP), byte(s.Energy)})
	}
	for _, q := range p.G.Queue {
		h.Write([]byte{byte(q), byte(q >> 8)})
	}
	return h.Sum64()
}

// Encode writes five planes from the mover's side: own cells, enemy cells, corpses, the
// on-board squares and the acting cell.
func (p Position) Encode(dst []float32) {
	clear(dst[:Info.InputSize()])
	const ps = MaxGrid * MaxGrid
	ax, ay, _ := p.G.Actor()
	for y := range min(p.G.H, MaxGrid) {
		for x := range min(p.G.W, MaxGrid) {
			i := y*MaxGrid + x
			s := p.G.At(x, y)
			switch {
			case s.Kind == Corpse:
				dst[2*ps+i] = 1
			case s.Kind == Live && int(s.Owner) == p.G.Player:
				dst[i] = 1
			case s.Kind == Live:
				dst[ps+i] = 1
			}
			dst[3*ps+i] = 1
			if x == ax && y == ay {
				dst[4*ps+i] = 1
			}
		}
	}
}

func (p Position) String() string { return p.G.String() }

// Def is the game's contract: facts and the start (no judge notation: the game is played
// one process per cell action, see the registry's "cell" protocol).
func Def() *contract.Def[Position, Action] {
	return &contract.Def[Position, Action]{
		Info:  Info,
		Start: Start,
		Parse: ParsePosition,
		Outcome: func(p Position) string {
			return p.G.Outcome()
		},
		Picture: Position.Picture,
	}
}

// ParsePosition reads a view (the program's stdin) as a Position, seen as player 1 with
// 4 8 0 species on both sides.
func ParsePosition(s string) (Position, error) {
	v, err := ParseView(strings.ReplaceAll(s, "|", "\n"))
	if err != nil {
		return Position{}, err
	}
	if v.W < 3 || v.H < 3 {
		return Position{}, errors.New("petri: the grid must be at least 3x3")
	}
	sp := Species{4, 8, 0}
	return Position{v.Game(DriverRules, sp, sp)}, nil
}

// Picture draws p for the replay viewer: living cells 'o' of their owner with HP and energy,
// corpses 'c'; the actor is the cell that acts next.
func (p Position) Picture() contract.Picture {
	g := p.G
	pic := contract.GridPicture(g.H, g.W, 2, g.Player, g.Over, func(r, c int) (byte, int) {
		switch s := g.At(c, r); s.Kind {
		case Live:
			return 'o', int(s.Owner)
		case Corpse:
			return 'c', -1
		}
		return '.', -1
	})
	pic.HP, pic.Energy = make([]int16, len(g.Sq)), make([]int16, len(g.Sq))
	for i, s := range g.Sq {
		if s.Kind == Live {
			pic.HP[i], pic.Energy[i] = s.HP, s.Energy
		}
	}
	if x, y, ok := g.Actor(); ok && !g.Over {
		pic.Actor = y*g.W + x
	}
	return pic
}
