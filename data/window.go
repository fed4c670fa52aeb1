package data

import (
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
)

// Window is a replay buffer over the newest examples of a shard directory. It keeps at most
// Capacity examples: the newest shards (by modification time, then name) in full and, when
// the capacity falls inside a shard, that shard's last examples. Examples are held in packed
// form (inputs as in the file, about 30 bytes for an ataxx position instead of 1176) and
// unpacked when sampled.
//
// A Window is not safe for concurrent use.
type Window struct {
	dir      string
	want     Expect
	capacity int
	aug      Augmenter
	warn     io.Writer
	filter   func(string) bool
	valOnly  bool
	lambda   float32

	shards []winShard // oldest first
	cum    []int      // cum[i] = examples held in shards[:i+1]
	bad    map[string]bool
	tmp    []float32
}

type winShard struct {
	name  string
	c     *shardContent
	start int // first example kept
}

// WindowOptions configures NewWindow.
type WindowOptions struct {
	Game           string
	EncoderVersion int
	Capacity       int       // newest examples kept (> 0)
	Augmenter      Augmenter // nil: no augmentation
	Warn           io.Writer // damaged shard warnings; nil: os.Stderr
	// Filter, when set, picks the shards the window may hold by name: a shard it returns
	// false for is never read (a validation split keeps its shards out of the training
	// window this way, and reads only them into its own).
	Filter func(name string) bool
	// ValuesOnly is for a consumer that reads no policy (a value trainer): each shard drops
	// its policies and its games' moves as it loads, keeps values and scores only up to the
	// last seat used in it, and holds its packed inputs at their exact size (107 -> 68 heap
	// bytes a Bacteria War example). Examples then come with an empty Policy.
	ValuesOnly bool
	// ScoreLambda, when above 0, makes each scored example's search score the λ-return of
	// its game's later scores and outcome as its shard loads (lambdaScores): a score target
	// that reads further along the game. 0 keeps the shards' scores; it must be below 1.
	ScoreLambda float64
}

// NewWindow returns an empty window over dir; call Refresh to load it.
func NewWindow(dir string, opt WindowOptions) (*Window, error) {
	if opt.Capacity <= 0 {
		return nil, fmt.Errorf("data: window capacity %d must be positive", opt.Capacity)
	}
	if opt.Game == "" {
		return nil, fmt.Errorf("data: window needs a game name")
	}
	if err := CheckScoreLambda(opt.ScoreLambda); err != nil {
		return nil, err
	}
	aug := opt.Augmenter
	if aug == nil {
		aug = NoAugment{}
	}
	return &Window{
		dir:      dir,
		want:     Expect{Game: opt.Game, EncoderVersion: opt.EncoderVersion},
		capacity: opt.Capacity,
		aug:      aug,
		warn:     opt.Warn,
		filter:   opt.Filter,
		valOnly:  opt.ValuesOnly,
		lambda:   float32(opt.ScoreLambda),
		bad:      make(map[string]bool),
	}, nil
}

// Len returns the number of examples held.
func (w *Window) Len() int {
	if len(w.cum) == 0 {
		return 0
	}
	return w.cum[len(w.cum)-1]
}

// Shards returns the names of the shards held, oldest first.
func (w *Window) Shards() []string {
	out := make([]string, len(w.shards))
	for i, s := range w.shards {
		out[i] = s.name
	}
	return out
}

// Refresh rescans the directory: it reads the shards it has not seen yet, newest first, until
// the window holds Capacity examples, and drops the examples that are no longer among the
// newest Capacity (or whose shard has been deleted). A damaged shard is warned about once,
// counted in the report and skipped from then on; a shard of another game or encoder version
// is an error wrapping ErrMismatch, and the window is left as it was.
func (w *Window) Refresh() (LoadReport, error) {
	var rep LoadReport
	list, err := ListShards(w.dir, &rep.TempFiles)
	if err != nil {
		return rep, err
	}
	have := make(map[string]*shardContent, len(w.shards))
	for _, s := range w.shards {
		have[s.name] = s.c
	}
	var kept []winShard // newest first
	need := w.capacity
	for i := len(list) - 1; i >= 0 && need > 0; i-- {
		sh := list[i]
		if w.bad[sh.Name] || (w.filter != nil && !w.filter(sh.Name)) {
			continue
		}
		rep.Shards++
		c := have[sh.Name]
		if c == nil {
			c, err = readContent(sh.Path, &w.want)
			if err != nil {
				if skipErr(err) {
					w.bad[sh.Name] = true
					rep.warnCorrupt(w.warn, sh.Path, err)
					continue
				}
				return rep, err
			}
			c.lambdaScores(w.lambda)
			if w.valOnly {
				c.valuesOnly()
			}
			rep.Loaded++
		}
		n := c.len()
		if n == 0 {
			continue
		}
		take := min(n, need)
		need -= take
		kept = append(kept, winShard{name: sh.Name, c: c, start: n - take})
	}
	w.shards = w.shards[:0]
	w.cum = w.cum[:0]
	total := 0
	for i := len(kept) - 1; i >= 0; i-- {
		w.shards = append(w.shards, kept[i])
		total += kept[i].c.len() - kept[i].start
		w.cum = append(w.cum, total)
	}
	rep.Examples = total
	return rep, nil
}

// Example fills dst with example i of the window (0 = oldest held), without augmentation,
// reusing dst's buffers.
func (w *Window) Example(i int, dst *Example) {
	s := sort.SearchInts(w.cum, i+1)
	before := 0
	if s > 0 {
		before = w.cum[s-1]
	}
	sh := &w.shards[s]
	sh.c.example(sh.start+i-before, dst)
}

// Sample draws n examples uniformly (with replacement) from the window into dst[:n], growing
// dst if needed and reusing the Input and Policy buffers of its elements, so that a warm dst
// costs no allocation. Each example goes through a symmetry of the window's Augmenter drawn
// uniformly. It returns dst[:n], or an error if the window is empty.
func (w *Window) Sample(rng *rand.Rand, n int, dst []Example) ([]Example, error) {
	total := w.Len()
	if total == 0 {
		return dst[:0], fmt.Errorf("data: sample from an empty window over %s", w.dir)
	}
	if cap(dst) < n {
		dst = append(dst[:cap(dst)], make([]Example, n-cap(dst))...)
	}
	dst = dst[:n]
	nsym := w.aug.NumSymmetries()
	for i := range dst {
		ex := &dst[i]
		w.Example(rng.IntN(total), ex)
		k := 0
		if nsym > 1 {
			k = rng.IntN(nsym)
		}
		if k == 0 {
			continue
		}
		if cap(w.tmp) < len(ex.Input) {
			w.tmp = make([]float32, len(ex.Input))
		}
		tmp := w.tmp[:len(ex.Input)]
		w.aug.TransformInput(k, ex.Input, tmp)
		copy(ex.Input, tmp)
		for j := range ex.Policy {
			ex.Policy[j].Index = int32(w.aug.TransformPolicyIndex(k, int(ex.Policy[j].Index)))
		}
		permuteSeats(w.aug, k, &ex.Values)
		permuteSeats(w.aug, k, &ex.Scores)
	}
	return dst, nil
}

// FillBatch writes examples into the flat, row-major trainer buffers: inputs (n*inputSize),
// policyDense (n*policySize, cleared then filled from the sparse policies) and values
// (n*valuesPer, valuesPer in 1..4: the first valuesPer entries of each Values), where
// n = len(examples) and the per-example sizes are the buffer lengths divided by n.
func FillBatch(examples []Example, inputs, policyDense, values []float32) error {
	n := len(examples)
	if n == 0 {
		return nil
	}
	if len(inputs)%n != 0 || len(policyDense)%n != 0 || len(values)%n != 0 {
		return fmt.Errorf("data: batch buffers of %d, %d and %d values do not split into %d rows", len(inputs), len(policyDense), len(values), n)
	}
	in, pol, nv := len(inputs)/n, len(policyDense)/n, len(values)/n
	if nv < 1 || nv > 4 {
		return fmt.Errorf("data: %d values per example, want 1..4", nv)
	}
	clear(policyDense)
	for i := range examples {
		ex := &examples[i]
		if len(ex.Input) != in {
			return fmt.Errorf("data: batch row %d: input has %d values, buffer row has %d", i, len(ex.Input), in)
		}
		copy(inputs[i*in:], ex.Input)
		row := policyDense[i*pol : (i+1)*pol]
		for _, e := range ex.Policy {
			if e.Index < 0 || int(e.Index) >= pol {
				return fmt.Errorf("data: batch row %d: policy index %d outside [0,%d)", i, e.Index, pol)
			}
			row[e.Index] += e.Prob
		}
		copy(values[i*nv:(i+1)*nv], ex.Values[:nv])
	}
	return nil
}
