package engine

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The time manager: one type that turns a whole-game clock into a move's optimum and maximum
// and, after each iteration of a deepening search, decides whether to go on. It works in
// ticks, the clock's unit: nanoseconds of a wall clock, or nodes of a node clock (a game of N
// nodes a side, spent by the same rules, so that two time managers can be compared with no
// machine load in the result). Its arithmetic is integer only, so that its C++ twin
// (export/cpp/templates/common.cpp, TimeManager) decides exactly alike; a parity test drives
// both through the same scripted clocks.

// TimeParams are a TimeManager's rules. Times are given in milliseconds or microseconds of a
// wall clock; a node clock converts them at NodesPerMs. Factors are in thousandths (‰).
type TimeParams struct {
	// MoveCostUs is the least an own move costs, in µs: that much is held back for each own
	// move the game may still ask for (CapReserve), and a clock under two of them answers at
	// once.
	MoveCostUs int64
	// ReserveDiv and ReserveMaxMs: of what is left after that, min(left/ReserveDiv,
	// ReserveMaxMs) is kept back too.
	ReserveDiv   int64
	ReserveMaxMs int64
	// Horizon (0: none) caps the game's count of own moves to come that the rest is shared
	// among: a smaller horizon front-loads the clock (Horizon 33 spends about 3% of what is
	// left on a move).
	Horizon int64
	// OptPm scales the even share into the optimum: optimum = avail*OptPm/1000/moves +
	// 3/4 of the increment.
	OptPm int64
	// The maximum, where the search is stopped: min(MaxPm‰ of the optimum, avail/MaxDiv +
	// 3/4 of the increment).
	MaxPm  int64
	MaxDiv int64
	// StartPm: no new iteration starts once StartPm‰ of the scaled optimum is spent (the next
	// iteration would likely overrun it).
	StartPm int64
	// Node share, from iteration ShareDepth on (0: never): the optimum is scaled by
	// (ShareBase - f)*ShareMult/100, f the part of the search's nodes spent below the best
	// root move (hundredths): a settled best move stops sooner, a contested one later.
	ShareDepth int64
	ShareBase  int64
	ShareMult  int64
	// Stability, from iteration StableDepth on (0: never): scaled by max(StableMin,
	// StableMax - StableStep*n)‰, n the iterations in a row that kept the best move.
	StableDepth int64
	StableMax   int64
	StableStep  int64
	StableMin   int64
	// Score drop, from iteration DropDepth on (0: never): scaled by 1000 + min(DropMax,
	// DropPm*drop)‰, drop the fall of the score (the search's units) below the score this
	// side's previous move ended with.
	DropDepth int64
	DropPm    int64
	DropMax   int64
	// NodesPerMs converts the times above into a node clock's ticks.
	NodesPerMs int64
}

// DefaultTime are the rules every alpha-beta engine had before the time manager: 2 ms held
// back a possible own move, a quarter of the rest (at most 300 ms) kept, the rest shared
// evenly among the game's own moves to come; the maximum three optima and a third of what is
// left; no new iteration after half the optimum; no scaling.
var DefaultTime = TimeParams{
	MoveCostUs: 2000, ReserveDiv: 4, ReserveMaxMs: 300,
	OptPm: 1000, MaxPm: 3000, MaxDiv: 3, StartPm: 500,
	ShareBase: 150, ShareMult: 120, StableMax: 1000, StableStep: 0, StableMin: 1000,
	NodesPerMs: 2000,
}

// timeParamNames are TimeParams' field names lower-cased, in order: the names of a Set
// specification (read case-insensitively) and of String.
var timeParamNames = func() []string {
	t := reflect.TypeFor[TimeParams]()
	n := make([]string, t.NumField())
	for i := range n {
		n[i] = strings.ToLower(t.Field(i).Name)
	}
	return n
}()

// TimeParamNames are the names Set reads, in the fields' order.
func TimeParamNames() []string { return slices.Clone(timeParamNames) }

// Values are p's fields in declaration order (for a port's parity tests).
func (p TimeParams) Values() []int64 {
	v := reflect.ValueOf(p)
	out := make([]int64, v.NumField())
	for i := range out {
		out[i] = v.Field(i).Int()
	}
	return out
}

// Set changes the fields named in spec, "name=value,name=value" (names case-insensitive,
// "" changes nothing); an unknown name or a bad value is an error that lists the names.
func (p *TimeParams) Set(spec string) error {
	v := reflect.ValueOf(p).Elem()
	for _, kv := range strings.Split(spec, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		name, val, ok := strings.Cut(kv, "=")
		i := -1
		for j, n := range timeParamNames {
			if strings.EqualFold(n, strings.TrimSpace(name)) {
				i = j
			}
		}
		if !ok || i < 0 {
			return fmt.Errorf("time rule %q: want name=value with a name among %s", kv, strings.Join(timeParamNames, ", "))
		}
		x, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil || x < 0 {
			return fmt.Errorf("time rule %q: the value is not a whole number >= 0", kv)
		}
		v.Field(i).SetInt(x)
	}
	return p.Check()
}

// Check reports rules that cannot plan a move.
func (p TimeParams) Check() error {
	switch {
	case p.ReserveDiv < 1, p.MaxDiv < 1:
		return fmt.Errorf("time rules: ReserveDiv and MaxDiv must be >= 1 (%d, %d)", p.ReserveDiv, p.MaxDiv)
	case p.OptPm < 1, p.MaxPm < 1, p.StartPm < 1:
		return fmt.Errorf("time rules: OptPm, MaxPm and StartPm must be >= 1 (%d, %d, %d)", p.OptPm, p.MaxPm, p.StartPm)
	case p.NodesPerMs < 1:
		return fmt.Errorf("time rules: NodesPerMs must be >= 1")
	}
	return nil
}

// String is p as a Set specification of every field.
func (p TimeParams) String() string {
	var b strings.Builder
	for i, x := range p.Values() {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%d", timeParamNames[i], x)
	}
	return b.String()
}

// Clock is one move's view of a whole-game clock, in ticks.
type Clock struct {
	Left, Inc int64 // what is left of the mover's clock, and its increment
	PerMs     int64 // ticks a millisecond: 1e6 for a wall clock in nanoseconds, NodesPerMs for a node clock
}

// TimeManager plans one move at a time from a Clock and decides after each iteration of the
// move's search whether to go on. It remembers the score each move ended with (for the score
// drop of the next one) until Reset. The zero value with P set is ready.
type TimeManager struct {
	P TimeParams

	Optimum, Maximum int64 // this move's plan, in ticks
	Quick            bool  // under the reserve: answer at once with the cheapest search

	best       uint32 // the best move of the last iteration
	stable     int64  // iterations in a row that kept it
	iterations int64  // iterations seen this move
	ref        int32  // the score the previous move ended with
	haveRef    bool
	last       int32 // the score of the last iteration
	haveLast   bool
	lastFactor int64 // the optimum's scale (‰) after the last iteration
}

// Reset forgets the previous moves (a new game).
func (t *TimeManager) Reset() {
	t.haveRef, t.haveLast = false, false
}

// Start plans a move: ownMovesLeft is how many own moves the game may still ask for (each
// costs at least MoveCostUs), expectedMoves how many it is likely to (the game's estimate,
// capped by Horizon). It sets Optimum and Maximum (or Quick, under the reserve) and returns
// them.
func (t *TimeManager) Start(c Clock, ownMovesLeft, expectedMoves int) (optimum, maximum int64) {
	p := &t.P
	if t.haveLast {
		t.ref, t.haveRef = t.last, true
	}
	t.haveLast, t.iterations, t.stable, t.lastFactor = false, 0, 0, 1000
	cost := p.MoveCostUs * c.PerMs / 1000
	left := c.Left - int64(max(ownMovesLeft, 0))*cost
	t.Quick = left < 2*cost
	if t.Quick {
		t.Optimum, t.Maximum = max(cost/2, 1), max(cost/2, 1)
		return t.Optimum, t.Maximum
	}
	reserve := min(left/p.ReserveDiv, p.ReserveMaxMs*c.PerMs)
	avail := left - reserve
	moves := int64(max(expectedMoves, 1))
	if p.Horizon > 0 {
		moves = min(moves, p.Horizon)
	}
	opt := avail*p.OptPm/1000/moves + c.Inc*3/4
	maxi := min(opt*p.MaxPm/1000, avail/p.MaxDiv+c.Inc*3/4)
	opt = min(opt, maxi)
	if floor := c.PerMs; maxi < floor { // at least a millisecond
		maxi, opt = floor, floor
	}
	t.Optimum, t.Maximum = opt, maxi
	return opt, maxi
}

// Iteration is told of each finished iteration: its depth, the ticks spent on the move so far,
// its best move and score, the nodes spent below the best root move and in all. It returns
// true when the search should stop: the scaled optimum's StartPm‰ is spent.
func (t *TimeManager) Iteration(depth int, elapsed int64, best uint32, score int32, bestNodes, nodes int64) (stop bool) {
	p := &t.P
	d := int64(depth)
	if t.iterations > 0 && best == t.best {
		t.stable++
	} else {
		t.stable = 0
	}
	t.best, t.iterations = best, t.iterations+1
	t.last, t.haveLast = score, true

	f := int64(1000)
	if p.ShareDepth > 0 && d >= p.ShareDepth && nodes > 0 {
		share := bestNodes * 1000 / nodes
		f = f * max(p.ShareBase*10-share, 0) * p.ShareMult / 100 / 1000
	}
	if p.StableDepth > 0 && d >= p.StableDepth {
		f = f * max(p.StableMin, p.StableMax-p.StableStep*t.stable) / 1000
	}
	if p.DropDepth > 0 && d >= p.DropDepth && t.haveRef && score < t.ref {
		f = f * (1000 + min(p.DropMax, p.DropPm*int64(t.ref-score))) / 1000
	}
	t.lastFactor = f
	target := min(t.Optimum*f/1000, t.Maximum)
	return elapsed >= target*p.StartPm/1000
}

// Factor is the optimum's scale (‰) after the last iteration (1000 before any).
func (t *TimeManager) Factor() int64 { return t.lastFactor }
