package train

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"colony/game/ataxx"
	"colony/nn"
)

func TestStepRuns(t *testing.T) {
	tr := newTinyTrainer(t, Config{Batch: 4, Seed: 1}, 1)
	b := &cycler{d: syntheticData(16, 1)}
	for i := range 3 {
		s, err := tr.Step(b)
		if err != nil {
			t.Fatal(err)
		}
		if s.Step != int64(i+1) || !(s.Policy > 0) || !(s.Value >= 0) || !(s.L2 > 0) || math.IsNaN(s.Total) ||
			math.Abs(s.Total-(s.Policy+s.Value+s.L2)) > 1e-9 || s.LR != 2e-3 || !(s.SamplesPerSec > 0) {
			t.Fatalf("bad stats %+v", s)
		}
	}
	// The first loss of an untrained net is close to ln(PolicySize) for the policy.
	if tr.StepCount() != 3 {
		t.Fatalf("StepCount %d", tr.StepCount())
	}
}

// evalLoss measures the mean policy cross-entropy and value MSE of model on d in eval mode
// (BatchNorm running statistics), through the trainer-side evaluator.
func evalLoss(t *testing.T, m *nn.Model, d *dataset) (policy, value float64) {
	t.Helper()
	a := m.Arch
	const B = 32
	ev, err := NewEvaluator(m, B)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	in := make([]float32, B*ataxx.InputSize)
	lp, lv := make([]float32, B*a.PolicySize), make([]float32, B*a.NumPlayers)
	n := len(d.inputs)
	for s := 0; s < n; s += B {
		k := min(B, n-s)
		for i := range k {
			copy(in[i*ataxx.InputSize:], d.inputs[s+i])
		}
		if err := ev.Forward(in, k, lp, lv); err != nil {
			t.Fatal(err)
		}
		for i := range k {
			logits := lp[i*a.PolicySize : (i+1)*a.PolicySize]
			mx := math.Inf(-1)
			for _, x := range logits {
				mx = max(mx, float64(x))
			}
			var z float64
			for _, x := range logits {
				z += math.Exp(float64(x) - mx)
			}
			for j, p := range d.policy[s+i] {
				if p > 0 {
					policy -= float64(p) * (float64(logits[j]) - mx - math.Log(z))
				}
			}
			for j, v := range d.values[s+i] {
				e := float64(lv[i*a.NumPlayers+j] - v)
				value += e * e / float64(a.NumPlayers)
			}
		}
	}
	return policy / float64(n), value / float64(n)
}

// TestSanityFit trains the tiny net on 256 fixed synthetic positions and requires both the
// training loss and the eval-mode loss (which depends on the BatchNorm running statistics) to
// drop substantially.
func TestSanityFit(t *testing.T) {
	d := syntheticData(256, 21)
	m0 := nn.NewRandom(tinyArch(), 22)
	p0, v0 := evalLoss(t, m0, d)
	tr, err := NewTrainer(m0, Config{Batch: 32, LR: 3e-3, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	b := &cycler{d: d}
	steps := 240
	if testing.Short() {
		steps = 120
	}
	var first, last float64
	for i := range steps {
		s, err := tr.Step(b)
		if err != nil {
			t.Fatal(err)
		}
		if i < 8 {
			first += s.Policy + s.Value
		}
		if i >= steps-8 {
			last += s.Policy + s.Value
		}
	}
	first, last = first/8, last/8
	p1, v1 := evalLoss(t, tr.Model(), d)
	t.Logf("train loss %.3f -> %.3f; eval policy %.3f -> %.3f, value %.4f -> %.4f (%d steps)", first, last, p0, p1, v0, v1, steps)
	if !(last < 0.75*first) {
		t.Errorf("training loss fell only from %.3f to %.3f", first, last)
	}
	if !(p1 < 0.75*p0) || !(v1 < 0.5*v0) {
		t.Errorf("eval-mode loss did not drop enough: policy %.3f -> %.3f, value %.4f -> %.4f", p0, p1, v0, v1)
	}
}

// naiveStemPre computes the stem convolution (before BatchNorm) of a batch.
func naiveStemPre(c *nn.Conv, a nn.Arch, in []float32, batch int) [][]float64 {
	H, W := a.Height, a.Width
	hw := H * W
	out := make([][]float64, c.Out) // [channel][batch*hw]
	for o := range c.Out {
		out[o] = make([]float64, batch*hw)
		for b := range batch {
			x := in[b*inputSize(a):]
			for r := range H {
				for col := range W {
					var s float64
					for i := range c.In {
						for kr := range 3 {
							for kc := range 3 {
								rr, cc := r+kr-1, col+kc-1
								if rr >= 0 && rr < H && cc >= 0 && cc < W {
									s += float64(c.W[((o*c.In+i)*3+kr)*3+kc]) * float64(x[i*hw+rr*W+cc])
								}
							}
						}
					}
					out[o][b*hw+r*W+col] = s
				}
			}
		}
	}
	return out
}

// TestBatchNormRunningStats checks the exported running statistics after training steps
// against running = 0.1*batch + 0.9*running with the batch variance unbiased, and that
// NewTrainer keeps the statistics it is given (creating the machine resets them).
func TestBatchNormRunningStats(t *testing.T) {
	m := nn.NewRandom(tinyArch(), 31)
	perturb(m, 32)
	const B = 4
	tr, err := NewTrainer(m, Config{Batch: B, LR: 1e-9}) // weights barely move
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if got := tr.Model(); maxAbsDiff(got.Weights.Stem.Var, m.Weights.Stem.Var) != 0 ||
		maxAbsDiff(got.Weights.ValueConv.Mean, m.Weights.ValueConv.Mean) != 0 {
		t.Fatal("a new trainer does not export the statistics it was given")
	}
	b := &cycler{d: syntheticData(8, 33)}
	mean := append([]float32(nil), m.Weights.Stem.Mean...)
	vr := append([]float32(nil), m.Weights.Stem.Var...)
	for range 2 {
		if _, err := tr.Step(b); err != nil {
			t.Fatal(err)
		}
		pre := naiveStemPre(&m.Weights.Stem, m.Arch, tr.in, B)
		for o, xs := range pre {
			var s, ss float64
			for _, x := range xs {
				s += x
			}
			mu := s / float64(len(xs))
			for _, x := range xs {
				ss += (x - mu) * (x - mu)
			}
			mean[o] = float32(0.1*mu + 0.9*float64(mean[o]))
			vr[o] = float32(0.1*ss/float64(len(xs)-1) + 0.9*float64(vr[o]))
		}
	}
	got := tr.Model().Weights.Stem
	if dm, dv := maxAbsDiff(got.Mean, mean), maxAbsDiff(got.Var, vr); dm > 1e-4 || dv > 1e-4 {
		t.Errorf("stem running stats differ from the expected update: mean %g, var %g\n got  %v %v\n want %v %v",
			dm, dv, got.Mean, got.Var, mean, vr)
	}
}

// TestCheckpointResume trains, checkpoints, trains on; a trainer resumed from the checkpoint
// must reproduce the same steps (losses and weights) and the same random stream.
func TestCheckpointResume(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "run.ckpt")
	d := syntheticData(40, 41)
	for _, opt := range []string{Adam, SGD} {
		t.Run(opt, func(t *testing.T) {
			cfg := Config{Batch: 4, Optimizer: opt, Seed: 42, Schedule: Cosine, TotalSteps: 20, WarmupSteps: 2}
			a := newTinyTrainer(t, cfg, 43)
			ba := &cycler{d: d}
			for range 4 {
				if _, err := a.Step(ba); err != nil {
					t.Fatal(err)
				}
			}
			a.Rand().Uint64() // the random stream is part of the state
			a.Notes()["target"] = "8"
			if err := a.SaveCheckpoint(ck); err != nil {
				t.Fatal(err)
			}
			pos := ba.next
			var want []StepStats
			for range 4 {
				s, err := a.Step(ba)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, s)
			}
			wantRand := a.Rand().Uint64()

			r, err := Resume(ck, Config{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if r.StepCount() != 4 || r.Config().Optimizer != opt || r.Notes()["target"] != "8" {
				t.Fatalf("resumed at step %d with %q", r.StepCount(), r.Config().Optimizer)
			}
			br := &cycler{d: d, next: pos}
			for i := range 4 {
				s, err := r.Step(br)
				if err != nil {
					t.Fatal(err)
				}
				if s.Step != want[i].Step || s.LR != want[i].LR || math.Abs(s.Total-want[i].Total) > 1e-5 {
					t.Errorf("resumed step %d: %+v, want %+v", i, s, want[i])
				}
			}
			if got := r.Rand().Uint64(); got != wantRand {
				t.Errorf("random stream not restored: %d, want %d", got, wantRand)
			}
			wa, wr := a.Model(), r.Model()
			refA, refR := weightRefs(wa.Arch, &wa.Weights), weightRefs(wr.Arch, &wr.Weights)
			for i := range refA {
				if d := maxAbsDiff(*refA[i].data, *refR[i].data); d > 1e-5 {
					t.Errorf("%s differs by %g after resuming", refA[i].name, d)
				}
			}
			// A resumed optimizer of another kind is refused.
			other := SGD
			if opt == SGD {
				other = Adam
			}
			if x, err := Resume(ck, Config{Batch: 4, Optimizer: other}); err == nil {
				x.Close()
				t.Error("resuming with another optimizer kind was accepted")
			}
		})
	}
}

func TestCheckpointRejectsDamage(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "a.ckpt")
	tr := newTinyTrainer(t, Config{Batch: 4}, 51)
	if _, err := tr.Step(&cycler{d: syntheticData(8, 52)}); err != nil {
		t.Fatal(err)
	}
	if err := tr.SaveCheckpoint(ck); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(ck)
	if err != nil {
		t.Fatal(err)
	}
	m, err := LoadCheckpointModel(ck)
	if err != nil || m.Step != 1 {
		t.Fatalf("good checkpoint: %v (step %v)", err, m)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left next to the checkpoint: %v", entries)
	}
	for name, bad := range map[string][]byte{
		"flipped byte": func() []byte { b := append([]byte(nil), good...); b[len(b)/2] ^= 0x40; return b }(),
		"truncated":    good[:len(good)-100],
		"bad magic":    append([]byte("NOTACKPT"), good[8:]...),
		"bad version":  func() []byte { b := append([]byte(nil), good...); b[8] = 99; return b }(),
	} {
		p := filepath.Join(dir, "bad.ckpt")
		if err := os.WriteFile(p, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Resume(p, Config{}); err == nil {
			t.Errorf("%s: checkpoint accepted", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// TestContinueFromExportedModel: a model exported by one trainer starts another that exports
// the same weights and statistics (training continues from the best model).
func TestContinueFromExportedModel(t *testing.T) {
	a := newTinyTrainer(t, Config{Batch: 4}, 61)
	for range 3 {
		if _, err := a.Step(&cycler{d: syntheticData(12, 62)}); err != nil {
			t.Fatal(err)
		}
	}
	m := a.Model()
	m.Meta["run"] = "test"
	b, err := NewTrainer(m, Config{Batch: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	m2 := b.Model()
	if m2.Step != 3 || m2.Meta["run"] != "test" {
		t.Errorf("step %d meta %v", m2.Step, m2.Meta)
	}
	r1, r2 := weightRefs(m.Arch, &m.Weights), weightRefs(m2.Arch, &m2.Weights)
	for i := range r1 {
		if d := maxAbsDiff(*r1[i].data, *r2[i].data); d != 0 {
			t.Errorf("%s changed by %g", r1[i].name, d)
		}
	}
	// Export must not share memory with the trainer.
	m2.Weights.Stem.W[0] += 1
	if b.Model().Weights.Stem.W[0] == m2.Weights.Stem.W[0] {
		t.Error("Model() shares memory with the trainer")
	}
}

// TestNoMemoryGrowth runs many steps and checks that the live heap does not grow (loosely).
func TestNoMemoryGrowth(t *testing.T) {
	tr := newTinyTrainer(t, Config{Batch: 4}, 71)
	b := &cycler{d: syntheticData(32, 72)}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	run := func(n int) {
		for range n {
			if _, err := tr.Step(b); err != nil {
				t.Fatal(err)
			}
		}
	}
	run(20)
	h0 := heap()
	n := 300
	if testing.Short() {
		n = 150
	}
	run(n)
	h1 := heap()
	t.Logf("heap after warm-up %.1f MB, after %d more steps %.1f MB", float64(h0)/1e6, n, float64(h1)/1e6)
	if h1 > h0+8<<20 {
		t.Errorf("heap grew from %d to %d bytes over %d steps", h0, h1, n)
	}
}

func TestLRSchedules(t *testing.T) {
	c := Config{LR: 1, Schedule: StepLR, StepEvery: 10, StepGamma: 0.5}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		step int64
		want float64
	}{{0, 1}, {9, 1}, {10, 0.5}, {25, 0.25}} {
		if got := c.LRAt(tc.step); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("step schedule at %d: %v, want %v", tc.step, got, tc.want)
		}
	}
	c = Config{LR: 1, MinLR: 0.1, Schedule: Cosine, TotalSteps: 100, WarmupSteps: 4}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		step int64
		want float64
	}{{0, 0.25 * (0.1 + 0.9*0.5*(1+math.Cos(0)))}, {50, 0.55}, {100, 0.1}, {500, 0.1}} {
		if got := c.LRAt(tc.step); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("cosine schedule at %d: %v, want %v", tc.step, got, tc.want)
		}
	}
	for _, bad := range []Config{{Batch: 1}, {Optimizer: "rmsprop"}, {Schedule: Cosine}, {Schedule: StepLR}, {LR: -1}} {
		if err := bad.Validate(); err == nil {
			t.Errorf("config %+v accepted", bad)
		}
	}
}

func TestLossLogResume(t *testing.T) {
	p := filepath.Join(t.TempDir(), "loss.csv")
	l, err := OpenLossLog(p, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(1); i <= 5; i++ {
		if err := l.Write(StepStats{Step: i, Total: float64(i), Policy: 1, Value: 0.5, L2: 0.01, LR: 1e-3, SamplesPerSec: 100}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// Resume after step 3: rows 4 and 5 are dropped, then 4.. appended again.
	l, err = OpenLossLog(p, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Write(StepStats{Step: 4, Total: 40}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	rows, err := ReadLossCSV(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[2].Step != 3 || rows[3].Step != 4 || rows[3].Total != 40 || rows[0].Value != 0.5 {
		t.Errorf("rows after resume: %+v", rows)
	}
}
