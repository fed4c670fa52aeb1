package alphabeta

import (
	"slices"
	"strings"
	"testing"
	"time"

	"colony/engine"
	"colony/internal/splitmix"
)

// A toy game for the search alone: a random tree given by hashing. A position is a hash and
// the plies left; it has 2 to 5 moves, its leaf value and, with no plies left, its winner come
// from the hash.
type toyMove uint16

const (
	toyNoMove toyMove = 0xFFFE
	toyPass   toyMove = 0xFFFF
	toyWin    int32   = 30000
	toyBound  int32   = 20000
)

type toyPos struct {
	h    uint64
	left int
	side int
}

func (p toyPos) ToMove() int         { return p.side }
func (p toyPos) Hash() uint64        { return p.h }
func (p toyPos) Terminal() bool      { return p.left == 0 }
func (p toyPos) numMoves() int       { return 2 + int(p.h>>7%4) }
func (p toyPos) winnerIsMover() bool { return p.h>>3&1 == 0 }
func (p toyPos) LegalMoves(dst []toyMove) []toyMove {
	dst = dst[:0]
	if p.left == 0 {
		return dst
	}
	for i := range p.numMoves() {
		dst = append(dst, toyMove(i*37+5))
	}
	return dst
}
func (p toyPos) Apply(m toyMove) toyPos {
	return toyPos{h: splitmix.Mix(p.h ^ uint64(m)*0x9E3779B97F4A7C15), left: p.left - 1, side: 1 - p.side}
}

type toyGame struct{ Plain[toyPos, toyMove] }

func (g *toyGame) Enter(p toyPos, ply, depth int, alpha, beta int32) (int32, bool, int, int32, int32) {
	if p.Terminal() {
		return toyTerminal(p, ply), true, depth, alpha, beta
	}
	return 0, false, depth, alpha, beta
}
func (g *toyGame) Key(p toyPos) uint64          { return p.h ^ uint64(p.left)<<56 }
func (g *toyGame) Leaf(p toyPos, ply int) int32 { return toyLeaf(p) }
func (g *toyGame) Stuck(p toyPos, ply int) (int32, bool) {
	return 0, false
}
func (g *toyGame) Moves(p toyPos, moves []toyMove, o *Order[toyMove]) ([]toyMove, int) {
	moves = p.LegalMoves(moves)
	o.Side(p.side)
	for i, m := range moves {
		o.Keys[i] = o.Key(m, int32(splitmix.Mix(p.h+uint64(m))%1000))
	}
	return moves, p.side
}

func toyTerminal(p toyPos, ply int) int32 {
	if p.winnerIsMover() {
		return toyWin - int32(ply)
	}
	return -toyWin + int32(ply)
}

func toyLeaf(p toyPos) int32 { return int32(splitmix.Mix(p.h)%2001) - 1000 }

var toyConfig = Config[toyMove]{
	MaxPly: 64, MaxDepth: 60, MaxMoves: 8, NoMove: toyNoMove, Pass: toyPass,
	WinScore: toyWin, PlyStep: 1, WinBound: toyBound,
	HistSize: 1 << 12, KillerBonus: [2]int32{2000, 1500}, RootHistory: true,
	Reductions: toyReductions, ReduceSides: 3, ReduceBelow: 1 << 30,
	Aspiration: 30,
}

var toyReductions = func() *LMR {
	var t LMR
	for d := range 64 {
		for i := 2; i < 64; i++ {
			t[d][i] = 1
		}
	}
	return &t
}()

// negamax is the plain minimax value with the toy game's leaf and terminal scores.
func negamax(p toyPos, depth, ply int) int32 {
	if p.Terminal() {
		return toyTerminal(p, ply)
	}
	if depth == 0 {
		return toyLeaf(p)
	}
	best := -infinity
	for _, m := range p.LegalMoves(nil) {
		best = max(best, -negamax(p.Apply(m), depth-1, ply+1))
	}
	return best
}

func toyRoots(n int) []toyPos {
	var ps []toyPos
	for i := range n {
		ps = append(ps, toyPos{h: splitmix.Mix(uint64(i) + 11), left: 3 + i%6, side: i % 2})
	}
	return ps
}

func exactEngine() *Engine[toyPos, toyMove, *toyGame] {
	e := New(toyConfig, Options{HashMB: 1, NoLMR: true}, &toyGame{})
	e.ExactTT = true
	return e
}

// TestScoreIsMinimax: without reductions and with cut-offs only on entries of the same
// depth, the alpha-beta value is the minimax value, table and ordering notwithstanding.
func TestScoreIsMinimax(t *testing.T) {
	e := exactEngine()
	for i, p := range toyRoots(40) {
		for depth := range 5 {
			if got, want := e.Score(p, depth), negamax(p, depth, 0); got != want {
				t.Fatalf("root %d depth %d: Score %d, minimax %d", i, depth, got, want)
			}
		}
	}
}

// TestSearchFindsTheMinimaxMove: a fixed-depth search reports the minimax value of its last
// depth and plays a move that has it.
func TestSearchFindsTheMinimaxMove(t *testing.T) {
	e := exactEngine()
	for i, p := range toyRoots(40) {
		depth := 1 + i%5
		m := e.Search(p, Budget{Start: time.Now(), Depth: depth}, nil)
		d, s, n := e.Stats()
		want := negamax(p, depth, 0)
		if s >= toyBound || s <= -toyBound {
			// A proven result ends the deepening early: it is the value at every greater depth.
			want = negamax(p, d, 0)
		} else if d != depth {
			t.Fatalf("root %d: searched to depth %d, want %d", i, d, depth)
		}
		if s != want {
			t.Fatalf("root %d depth %d: score %d, minimax %d", i, d, s, want)
		}
		if !slices.Contains(p.LegalMoves(nil), m) || -negamax(p.Apply(m), d-1, 1) != want {
			t.Fatalf("root %d depth %d: move %v does not keep the value %d", i, d, m, want)
		}
		if n <= 0 {
			t.Fatalf("root %d: %d nodes", i, n)
		}
	}
}

// TestReductionsAndTable: with reductions and the ordinary table, the search still plays
// legal moves and finds the forced results the plain search finds.
func TestReductionsAndTable(t *testing.T) {
	e := New(toyConfig, Options{HashMB: 1}, &toyGame{})
	for i, p := range toyRoots(40) {
		m := e.Search(p, Budget{Start: time.Now(), Depth: 12}, nil)
		if !slices.Contains(p.LegalMoves(nil), m) {
			t.Fatalf("root %d: illegal move %v", i, m)
		}
		// Roots of at most 4 plies are solved exactly: a win stays a win.
		if _, s, _ := e.Stats(); p.left <= 4 && (s >= toyBound) != (negamax(p, p.left, 0) >= toyBound) {
			t.Fatalf("root %d: score %d, minimax %d", i, s, negamax(p, p.left, 0))
		}
	}
}

func TestExclude(t *testing.T) {
	e := exactEngine()
	p := toyRoots(1)[0]
	moves := p.LegalMoves(nil)
	best := e.Search(p, Budget{Start: time.Now(), Depth: 4}, nil)
	if m := e.Search(p, Budget{Start: time.Now(), Depth: 4}, []toyMove{best}); m == best || !slices.Contains(moves, m) {
		t.Fatalf("excluded %v, got %v", best, m)
	}
	if m := e.Search(p, Budget{Start: time.Now(), Depth: 4}, moves); m != best {
		t.Fatalf("everything excluded: got %v, want the best move %v", m, best)
	}
	if m := e.Search(toyPos{h: 3}, Budget{Start: time.Now(), Depth: 4}, nil); m != toyNoMove {
		t.Fatalf("finished game: got %v, want NoMove", m)
	}
}

func TestLimitsAndAllocs(t *testing.T) {
	e := New(toyConfig, Options{HashMB: 1}, &toyGame{})
	p := toyPos{h: 99, left: 40}
	e.Search(p, Budget{Start: time.Now(), Nodes: 3000}, nil)
	// The root counts one node past the limit at most.
	if _, _, n := e.Stats(); n > 3001 || n < 2000 {
		t.Fatalf("node limit 3000: %d nodes", n)
	}
	start := time.Now()
	e.Search(p, Budget{Start: start, Hard: 20 * time.Millisecond}, nil)
	if el := time.Since(start); el > time.Second {
		t.Fatalf("a 20 ms hard limit took %v", el)
	}
	if a := testing.AllocsPerRun(3, func() { e.Search(p, Budget{Start: time.Now(), Depth: 6}, nil) }); a != 0 {
		t.Fatalf("%v allocations per search", a)
	}
	if a := testing.AllocsPerRun(3, func() { e.Score(p, 3) }); a != 0 {
		t.Fatalf("%v allocations per Score", a)
	}
	e.NewGame()
	if !e.Allocated() {
		t.Fatal("no table after a search")
	}
	if New(toyConfig, Options{HashMB: 1}, &toyGame{}).Allocated() {
		t.Fatal("New allocated the table")
	}
}

func TestBudget(t *testing.T) {
	e := New(toyConfig, Options{Depth: 7, Nodes: 500}, &toyGame{})
	if b := e.Budget(engine.Limits{Depth: 9, Nodes: 100}, 30, 10); b.TM != nil || b.Hard != 0 || b.Depth != 7 || b.Nodes != 100 {
		t.Fatalf("depth/nodes: %+v", b)
	}
	b := e.Budget(engine.Limits{MyTime: 10 * time.Second}, 30, 10)
	if s, h := ClockSplit(engine.DefaultTime, 10*time.Second-30*engine.MinMoveCost, 0, 10); b.Soft() != s || b.Hard != h {
		t.Fatalf("clock: %v %v, want %v %v", b.Soft(), b.Hard, s, h)
	}
	if b.Soft() <= 0 || b.Hard < b.Soft() || b.Hard > 10*time.Second/3 {
		t.Fatalf("clock: soft %v hard %v", b.Soft(), b.Hard)
	}
	// Under the reserve for the moves left: answer at once.
	if b := e.Budget(engine.Limits{MyTime: 50 * time.Millisecond}, 30, 10); b.Depth != 1 || b.Hard > engine.MinMoveCost || b.Soft() > b.Hard {
		t.Fatalf("low clock: %+v", b)
	}
	if b := e.Budget(engine.Limits{MoveTime: 100 * time.Millisecond}, 30, 10); b.Hard != 95*time.Millisecond {
		t.Fatalf("move time 100 ms: hard %v", b.Hard)
	}
	// A node clock: the plan's maximum caps the nodes, no wall-clock stop.
	if b := e.Budget(engine.Limits{NodeClock: 3_000_000, MyTime: time.Second}, 30, 10); !b.NodeClock || b.Hard != 0 || b.Nodes != 100 && b.Nodes > 500 {
		t.Fatalf("node clock: %+v", b)
	}
	e1 := New(toyConfig, Options{}, &toyGame{})
	if b := e1.Budget(engine.Limits{NodeClock: 3_000_000}, 30, 10); !b.NodeClock || b.Nodes != b.TM.Maximum || b.Nodes <= 0 || b.Nodes > 1_000_000 {
		t.Fatalf("node clock: %+v", b)
	}
	e2 := New(toyConfig, Options{}, &toyGame{})
	if b := e2.Budget(engine.Limits{}, 30, 10); b.Hard != DefaultMoveTime || b.TM != nil {
		t.Fatalf("no limits: %+v", b)
	}
	for _, my := range []time.Duration{time.Millisecond, 100 * time.Millisecond, 10 * time.Second} {
		p := engine.DefaultTime
		p.ReserveDiv = 5
		soft, hard := ClockSplit(p, my, 0, 20)
		if soft <= 0 || soft > hard || hard > max(my/3, time.Millisecond) {
			t.Fatalf("ClockSplit(%v): soft %v hard %v", my, soft, hard)
		}
	}
}

// TestNodeClockSearch: on a node clock the search stops by the time manager's rules in nodes,
// so two searches of the same position on the same clock spend the same nodes.
func TestNodeClockSearch(t *testing.T) {
	p := toyPos{h: 21, left: 40}
	var nodes [2]int64
	for i := range nodes {
		e := New(toyConfig, Options{HashMB: 1}, &toyGame{})
		b := e.Budget(engine.Limits{NodeClock: 400_000}, 30, 10)
		e.Search(p, b, nil)
		_, _, nodes[i] = e.Stats()
		if nodes[i] > b.Nodes+1 || nodes[i] == 0 {
			t.Fatalf("node clock: %d nodes, maximum %d", nodes[i], b.Nodes)
		}
	}
	if nodes[0] != nodes[1] {
		t.Fatalf("node clock searches spent %d and %d nodes", nodes[0], nodes[1])
	}
}

// TestSoftNodes: no iteration starts once the soft node budget is spent, so the search stops
// at a shallower depth than without it, having spent at least that budget.
func TestSoftNodes(t *testing.T) {
	p := toyPos{h: 5, left: 40}
	e := New(toyConfig, Options{HashMB: 1}, &toyGame{})
	e.Search(p, Budget{Start: time.Now(), Depth: 10}, nil)
	fullDepth, _, fullNodes := e.Stats()
	e.NewGame()
	e.Search(p, Budget{Start: time.Now(), Depth: 10, SoftNodes: fullNodes / 20}, nil)
	d, _, n := e.Stats()
	if d >= fullDepth || n < fullNodes/20 {
		t.Fatalf("soft budget %d: depth %d after %d nodes; without it depth %d, %d nodes", fullNodes/20, d, n, fullDepth, fullNodes)
	}
}

// TestIIR: without a table no node has a table move, so internal iterative reduction searches
// every node of depth >= IIRDepth a ply shallower: fewer nodes, still a legal move.
func TestIIR(t *testing.T) {
	p := toyPos{h: 8, left: 40}
	nodes := [2]int64{}
	for i, iir := range []bool{false, true} {
		e := New(toyConfig, Options{HashMB: -1, IIR: iir}, &toyGame{})
		if m := e.Search(p, Budget{Start: time.Now(), Depth: 9}, nil); !slices.Contains(p.LegalMoves(nil), m) {
			t.Fatalf("IIR %v: illegal move %v", iir, m)
		}
		_, _, nodes[i] = e.Stats()
	}
	if nodes[1] >= nodes[0] {
		t.Fatalf("nodes with IIR %d, without %d", nodes[1], nodes[0])
	}
}

// TestExperiments: every experiment of the table turns on something of its own, "" nothing,
// and an unknown name is refused with the known ones listed.
func TestExperiments(t *testing.T) {
	var none Options
	if err := none.SetExperiments(""); err != nil || none != (Options{}) {
		t.Fatalf(`SetExperiments(""): %v, %+v`, err, none)
	}
	seen := map[Options]string{}
	for _, name := range Experiments() {
		var o Options
		if err := o.SetExperiments(name); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if o == (Options{}) {
			t.Errorf("%s turns nothing on", name)
		}
		if other, dup := seen[o]; dup {
			t.Errorf("%s and %s turn on the same", name, other)
		}
		seen[o] = name
		if !strings.Contains(ExperimentsHelp(), name+": ") {
			t.Errorf("ExperimentsHelp does not describe %s: %q", name, ExperimentsHelp())
		}
	}
	var all Options
	if err := all.SetExperiments(strings.Join(Experiments(), ",")); err != nil {
		t.Fatal(err)
	}
	var o Options
	err := o.SetExperiments("iir,nonesuch")
	if err == nil || !strings.Contains(err.Error(), "nonesuch") || !strings.Contains(err.Error(), strings.Join(Experiments(), ", ")) {
		t.Errorf("an unknown experiment: %v", err)
	}
}
