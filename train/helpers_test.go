package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"colony/game/ataxx"
	"colony/nn"
)

// tinyArch is the small net the fast tests use: 1 block x 8 channels on the Ataxx encoding.
func tinyArch() nn.Arch { return nn.ArchFor(ataxx.Info, 1, 8) }

// dataset is a fixed set of encoded positions with targets.
type dataset struct {
	arch   nn.Arch
	inputs [][]float32
	policy [][]float32
	values [][]float32
}

// randomPositions plays n random games prefixes from the start position (deterministic in seed)
// and returns their positions, skipping terminal ones.
func randomPositions(n int, seed uint64) []ataxx.Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []ataxx.Position
	var moves []ataxx.Move
	for len(out) < n {
		p := ataxx.Start()
		plies := rng.IntN(60)
		for i := 0; i < plies && !p.Terminal(); i++ {
			moves = p.LegalMoves(moves[:0])
			p = p.Apply(moves[rng.IntN(len(moves))])
		}
		if !p.Terminal() {
			out = append(out, p)
		}
	}
	return out
}

// syntheticData builds n positions whose targets are simple functions of the board: the
// policy is uniform over the legal clone moves (or over all legal moves when there is none),
// the value is tanh(material difference / 8) from each player's side.
func syntheticData(n int, seed uint64) *dataset {
	d := &dataset{arch: tinyArch()}
	var moves []ataxx.Move
	for _, p := range randomPositions(n, seed) {
		in := make([]float32, ataxx.InputSize)
		p.Encode(in)
		pol := make([]float32, ataxx.PolicySize)
		moves = p.LegalMoves(moves[:0])
		var clones []int
		for _, m := range moves {
			if m.IsClone() {
				clones = append(clones, m.PolicyIndex())
			}
		}
		if len(clones) == 0 {
			for _, m := range moves {
				clones = append(clones, m.PolicyIndex())
			}
		}
		for _, k := range clones {
			pol[k] = 1 / float32(len(clones))
		}
		v := float32(math.Tanh(float64(p.Count(0)-p.Count(1)) / 8))
		d.inputs = append(d.inputs, in)
		d.policy = append(d.policy, pol)
		d.values = append(d.values, []float32{v, -v})
	}
	return d
}

// cycler serves a dataset's samples in a fixed cyclic order.
type cycler struct {
	d    *dataset
	next int
}

func (c *cycler) NextBatch(inputs, policy, values []float32) error {
	a := c.d.arch
	n := len(values) / a.NumPlayers
	if len(inputs) != n*ataxx.InputSize || len(policy) != n*a.PolicySize {
		return fmt.Errorf("cycler: buffer sizes %d %d %d", len(inputs), len(policy), len(values))
	}
	for i := range n {
		k := c.next % len(c.d.inputs)
		c.next++
		copy(inputs[i*ataxx.InputSize:], c.d.inputs[k])
		copy(policy[i*a.PolicySize:], c.d.policy[k])
		copy(values[i*a.NumPlayers:], c.d.values[k])
	}
	return nil
}

// newTinyTrainer returns a trainer on a fresh tiny net; it is closed with the test.
func newTinyTrainer(t testing.TB, cfg Config, seed uint64) *Trainer {
	t.Helper()
	tr, err := NewTrainer(nn.NewRandom(tinyArch(), seed), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func maxAbsDiff(a, b []float32) float64 {
	var m float64
	for i := range a {
		m = max(m, math.Abs(float64(a[i]-b[i])))
	}
	return m
}
