package registry_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"colony/agentdef"
	"colony/contract"
	"colony/engine"
	"colony/game/ataxx"
	"colony/mcts"
	"colony/registry"
)

func TestLookup(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	if info := g.Info(); info.Players() != 2 || info.PolicySize != 834 || g.Symmetries().NumSymmetries() != 8 {
		t.Errorf("bacteria-war: %+v, %d symmetries", info, g.Symmetries().NumSymmetries())
	}
	if _, err := registry.Lookup("chess"); err == nil || !strings.Contains(err.Error(), "bacteria-war") {
		t.Errorf("unknown game: %v (want the list of registered games)", err)
	}
	if n, err := g.Perft("", 4); err != nil || n != 155888 {
		t.Errorf("perft 4 = %d, %v", n, err)
	}
}

func TestRegisterTwicePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a second registration of a name did not panic")
		}
	}()
	registry.Register(triDef("bacteria-war"))
}

func TestRegisterRefusesABadDef(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a definition without a start position was registered")
		}
	}()
	d := triDef("tri-no-start")
	d.Start = nil
	registry.Register(d)
}

// TestToyGameThroughTheContract: the toy game's generic pieces (perft, referee view, engines)
// work from its registration alone.
func TestToyGameThroughTheContract(t *testing.T) {
	g := registry.Register(triDef("tri-contract"))
	for d, want := range []uint64{1, 9, 72, 504, 3024} {
		if n, err := g.Perft("", d); err != nil || n != want {
			t.Errorf("perft %d = %d, %v; want %d", d, n, err, want)
		}
	}
	if n, err := g.Perft("012/012/01. 2", 1); err != nil || n != 1 {
		t.Errorf("perft 1 with one empty cell = %d, %v", n, err)
	}
	var names []string
	for _, e := range g.Engines() {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "mcts,mcts-rollout,random" {
		t.Errorf("engines %v", names)
	}
	if err := g.CheckEngine("mcts", []string{"endgame"}, agentdef.EngineOptions{}); err == nil {
		t.Error("-endgame accepted for a game without a finishing engine")
	}
	st := g.Rules().Start()
	if _, err := st.Play(contract.Coords{1, 1, 1, 2}); err == nil {
		t.Error("a claim with two different cells was accepted")
	}
	st, err := st.Play(contract.Coords{2, 2, 2, 2})
	if err != nil || st.ToMove() != 1 || st.String() != ".../.0./... 1" {
		t.Fatalf("after a claim: %v, %v", st, err)
	}
	if _, err := st.Play(contract.Coords{2, 2, 2, 2}); err == nil {
		t.Error("a taken cell was claimed again")
	}
}

// TestContractMatchesSearch: the contract restates the search's bound on players.
func TestContractMatchesSearch(t *testing.T) {
	if contract.MaxPlayers != mcts.MaxPlayers {
		t.Fatalf("games.MaxPlayers %d, mcts.MaxPlayers %d", contract.MaxPlayers, mcts.MaxPlayers)
	}
	var v contract.Values = mcts.Values{1, 2, 3, 4}
	if v[3] != 4 {
		t.Fatal(v)
	}
}

// TestOpeningBook: a book built with an engine holds the start position (FIRST's book) and
// every position after one move of FIRST (SECOND's book), each with a legal move; an engine
// given the book plays its moves there; a book of another game is refused.
func TestOpeningBook(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	o := g.Defaults()
	b, err := g.BuildBook("greedy", o, engine.Limits{Depth: 1}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	rules := g.Rules()
	start := rules.Start()
	firstMoves, err := g.Perft("", 1)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(b.Moves)) != 1+firstMoves {
		t.Fatalf("%d book positions, want 1 + %d", len(b.Moves), firstMoves)
	}
	for pos, c := range b.Moves {
		st, err := rules.Parse(pos)
		if err != nil {
			t.Fatalf("%q: %v", pos, err)
		}
		if _, err := st.Play(c); err != nil {
			t.Fatalf("%q: book move %v: %v", pos, c, err)
		}
	}
	// A book with a chosen move at the start: the random engine plays it whatever its seed.
	want := start.RandomMove(rand.New(rand.NewPCG(1, 2)))
	b.Moves = map[string]contract.Coords{start.String(): want}
	o.Book = b
	for seed := range uint64(8) {
		o.Seed = seed
		p, err := g.NewPlayer("random", o)
		if err != nil {
			t.Fatal(err)
		}
		p.NewGame(0)
		if c, err := p.Move(start, 10*time.Second); err != nil || c != want {
			t.Fatalf("seed %d: played %v (%v), the book says %v", seed, c, err, want)
		}
	}
	b.Game = "catch-the-mouse"
	if _, err := g.NewPlayer("random", o); err == nil || !strings.Contains(err.Error(), "book is for catch-the-mouse") {
		t.Fatalf("a book of another game: %v", err)
	}
}

// EncodeState encodes a referee's state as the position reached by playing its moves encodes
// itself (ReplayMoves shows that encoding).
func TestEncodeState(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	p := ataxx.Start()
	var moves []int32
	for range 11 {
		legal := p.LegalMoves(nil)
		m := legal[rng.IntN(len(legal))]
		moves = append(moves, int32(m.PolicyIndex()))
		p = p.Apply(m)
	}
	moves = append(moves, int32(p.LegalMoves(nil)[0].PolicyIndex())) // ReplayMoves shows the position before a move
	want := make([]float32, g.Info().InputSize())
	if err := g.ReplayMoves(moves, func(ply int) bool { return ply == 11 }, func(_ int, in []float32) error {
		copy(want, in)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	st, err := g.Rules().Parse(p.String())
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float32, g.Info().InputSize())
	if err := g.EncodeState(st, got); err != nil {
		t.Fatal(err)
	}
	ones := 0
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%q: encodings differ at %d: %v, played %v", p, i, got[i], want[i])
		}
		if got[i] == 1 {
			ones++
		}
	}
	if ones < 4 {
		t.Errorf("the encoding of %q has %d ones", p, ones)
	}
	mouse, err := registry.Lookup("catch-the-mouse")
	if err != nil {
		t.Fatal(err)
	}
	if g.EncodeState(mouse.Rules().Start(), got) == nil || g.EncodeState(st, got[:5]) == nil {
		t.Error("another game's state or a short buffer encoded")
	}
}
