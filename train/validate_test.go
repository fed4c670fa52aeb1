package train

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"colony/data"
	"colony/game/ataxx"
	"colony/nn/nnue"
)

// TestValSplit: the split holds out round(frac x N) shards (at least one, never all), the
// same ones every time, and a shard written later does not move a held-out shard into
// training (nor the reverse).
func TestValSplit(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for i := range 50 {
		name := fmt.Sprintf("gen%03d-w%d.shard", i/5, i%5)
		names = append(names, name)
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		frac float64
		want int
	}{{0.02, 1}, {0.1, 5}, {0.5, 25}, {0.99, 49}} {
		held, picked, total, err := valSplit(dir, c.frac)
		if err != nil || picked != c.want || total != 50 {
			t.Fatalf("frac %v: picked %d of %d (%v), want %d of 50", c.frac, picked, total, err, c.want)
		}
		var in []string
		for _, n := range names {
			if held(n) {
				in = append(in, n)
			}
		}
		if len(in) != c.want {
			t.Fatalf("frac %v: the rule holds out %d shards, picked %d", c.frac, len(in), c.want)
		}
		// More shards later: the held-out ones stay held out, the others stay in training.
		for i := range 50 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("late%03d.shard", i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		again, _, _, err := valSplit(dir, c.frac)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if held(n) && !again(n) {
				t.Errorf("frac %v: %s was held out, is trained on once more shards came", c.frac, n)
			}
		}
		for i := range 50 {
			os.Remove(filepath.Join(dir, fmt.Sprintf("late%03d.shard", i)))
		}
	}
	if held, _, _, err := valSplit(dir, 0); held != nil || err != nil {
		t.Errorf("frac 0: %v %v", held != nil, err)
	}
	for _, bad := range []float64{-0.1, 1, math.NaN()} {
		if _, _, _, err := valSplit(dir, bad); err == nil {
			t.Errorf("frac %v accepted", bad)
		}
	}
	one := t.TempDir()
	os.WriteFile(filepath.Join(one, "a.shard"), nil, 0o644)
	if held, _, total, err := valSplit(one, 0.5); held != nil || total != 1 || err != nil {
		t.Errorf("one shard: held %v total %d err %v", held != nil, total, err)
	}
}

// TestNNUEValidateIsTheTrainingForward: the validation pass's blended MSE over a full batch is
// the training graph's loss on the same rows, its logits the graph's; and validating between
// steps leaves the training as it was (the same weights after the same steps).
func TestNNUEValidateIsTheTrainingForward(t *testing.T) {
	sc := func(a nnue.Arch) nnue.Arch { a.Activation = nnue.SCReLU; return a }
	for _, a := range []nnue.Arch{nnueArch(32, 0), sc(windowArch(32, 0)), windowArch(32, 16)} {
		const B = 16
		ps := randomPositions(3*B+5, 7)
		in := make([]float32, ataxx.InputSize)
		v := &valSet{}
		for i, p := range ps {
			p.Encode(in)
			pc, stm, err := a.Pieces(in)
			if err != nil {
				t.Fatal(err)
			}
			v.pieces, v.stm = append(v.pieces, pc), append(v.stm, uint8(stm))
			v.target = append(v.target, float32(math.Tanh(float64(p.Count(stm)-p.Count(stm^1))/8)))
			v.result = append(v.result, float32(i%3-1))
		}
		plain, err := NewNNUETrainer(nnue.NewRandom(a, 3), Config{Batch: B, LR: 1e-2})
		if err != nil {
			t.Fatal(err)
		}
		checked, err := NewNNUETrainer(nnue.NewRandom(a, 3), Config{Batch: B, LR: 1e-2})
		if err != nil {
			t.Fatal(err)
		}
		first := &valSet{pieces: v.pieces[:B], stm: v.stm[:B], target: v.target[:B], result: v.result[:B]}
		for round := range 3 {
			blend, result, err := checked.validate(first)
			if err != nil {
				t.Fatal(err)
			}
			logits, err := checked.Logits() // the rows validate left: the first batch
			if err != nil {
				t.Fatal(err)
			}
			loss, err := checked.run()
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(blend-loss) > 1e-5*max(1, loss) {
				t.Fatalf("%s round %d: validation mse %g, the graph's loss %g", a, round, blend, loss)
			}
			var want float64
			for j := range B {
				d := math.Tanh(float64(logits[j])) - float64(first.result[j])
				want += d * d
			}
			if want /= B; math.Abs(result-want) > 1e-6 {
				t.Fatalf("%s round %d: results mse %g, want %g", a, round, result, want)
			}
			if _, _, err := checked.validate(v); err != nil { // a partial last batch
				t.Fatal(err)
			}
			for _, tr := range []*NNUETrainer{plain, checked} {
				for s := range 5 {
					for j := range B {
						k := (s*B + j) % len(ps)
						tr.SetExample(j, v.pieces[k], int(v.stm[k]), v.target[k])
					}
					if _, err := tr.Step(); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		mp, mc := plain.Model(), checked.Model()
		if mp.SHA256() != mc.SHA256() {
			t.Fatalf("%s: validating between steps changed the training", a)
		}
		plain.Close()
		checked.Close()
	}
}

// TestNNUEValidatePartialBatch: over a set that does not fill its last batch, the MSEs are
// the float forward pass's over exactly the set's examples.
func TestNNUEValidatePartialBatch(t *testing.T) {
	a := windowArch(32, 0)
	m := nnue.NewRandom(a, 5)
	tr, err := NewNNUETrainer(m, Config{Batch: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	in := make([]float32, ataxx.InputSize)
	v := &valSet{}
	var want, wantR float64
	for i, p := range randomPositions(37, 9) {
		p.Encode(in)
		pc, stm, err := a.Pieces(in)
		if err != nil {
			t.Fatal(err)
		}
		target, result := float32(i%5)/5-0.4, float32(i%3-1)
		v.pieces, v.stm, v.target, v.result = append(v.pieces, pc), append(v.stm, uint8(stm)), append(v.target, target), append(v.result, result)
		y := math.Tanh(float64(m.Forward(pc, stm)))
		want += (y - float64(target)) * (y - float64(target))
		wantR += (y - float64(result)) * (y - float64(result))
	}
	blend, res, err := tr.validate(v)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(blend-want/37) > 1e-5 || math.Abs(res-wantR/37) > 1e-5 {
		t.Fatalf("validation %g / %g, float forward %g / %g", blend, res, want/37, wantR/37)
	}
	if _, _, err := tr.validate(&valSet{}); err == nil {
		t.Error("an empty set validated")
	}
}

// TestRunNNUEValidation: a run with a validation split holds one of the two shards out, trains
// on the other alone, validates at the start, every epoch and at the end (the per-epoch CSV's
// rows), draws the curves (SVG and PNG, one marked point per validation), and with BestVal
// writes the lowest validation loss's model to Out and the last to OUT.last.
func TestRunNNUEValidation(t *testing.T) {
	shards := writeShards(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "v.nnue")
	cfg := NNUEConfig{Game: ataxx.Info, Symmetries: ataxx.Symmetries{}, Arch: windowArch(32, 0), Shards: shards,
		Steps: 45, Batch: 32, LR: 1e-2, Out: out, Every: 1000, Seed: 1, ValFrac: 0.5, BestVal: true,
		EpochCSV: filepath.Join(dir, "v.epochs.csv"), Plot: filepath.Join(dir, "v.loss.svg"), CSV: filepath.Join(dir, "v.csv")}
	var log bytes.Buffer
	m, err := RunNNUE(context.Background(), cfg, &log)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	// The training window holds one shard, an epoch is its examples over the batch, the
	// validation set is the other shard.
	held, _, _, _ := valSplit(shards, 0.5)
	var trainN, valN int
	for _, name := range []string{"s0.shard", "s1.shard"} {
		_, exs, err := data.ReadShard(filepath.Join(shards, name))
		if err != nil {
			t.Fatal(err)
		}
		if held(name) {
			valN += len(exs)
		} else {
			trainN += len(exs)
		}
	}
	epoch := int64((trainN + 31) / 32)
	for _, want := range []string{"validation split: 1 of 2 shards held out", fmt.Sprintf("window: %d examples from 1 shards", trainN),
		fmt.Sprintf("validation: %d examples of 1 held-out shards, every %d steps", valN, epoch), "lowest validation mse"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	rows, err := ReadEpochCSV(cfg.EpochCSV)
	if err != nil {
		t.Fatal(err)
	}
	var steps []int64
	best := rows[1]
	for _, r := range rows {
		steps = append(steps, r.Step)
		if r.ValExamples != valN || !(r.Val > 0) || !(r.ValResult > 0) {
			t.Errorf("row %+v", r)
		}
		if r.Step > 0 && r.Val < best.Val {
			best = r
		}
	}
	if want := []int64{0, epoch, 2 * epoch, 45}; epoch != 19 || !slices.Equal(steps, want) {
		t.Fatalf("validated at steps %v, want %v (epoch %d steps, 19 expected)", steps, want, epoch)
	}
	if !math.IsNaN(rows[0].Train) || !(rows[1].Train > 0) || math.Abs(rows[1].Epoch-1) > 1e-9 {
		t.Errorf("first rows %+v %+v", rows[0], rows[1])
	}
	if rows[3].Val >= rows[0].Val {
		t.Errorf("validation mse did not fall: %g -> %g", rows[0].Val, rows[3].Val)
	}
	back, err := nnue.Load(out)
	if err != nil || back.Step != best.Step || m.Step != best.Step || back.Meta["score_scale"] == "" {
		t.Fatalf("best model: %v, step %d (returned %d), want %d; meta %v", err, back.Step, m.Step, best.Step, back.Meta)
	}
	if last, err := nnue.Load(out + ".last"); err != nil || last.Step != 45 {
		t.Fatalf("last model: %v %+v", err, last)
	}
	// The validation of the best step, again from the written model: its blend over the
	// held-out shard through the float forward pass.
	vs, err := loadValSet(shards, &NNUEConfig{Game: ataxx.Info, ValMax: DefaultValMax, ScoreWeight: cfg.ScoreWeight}, back.Arch, held, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mse float64
	for i := range vs.target {
		d := math.Tanh(float64(back.Forward(vs.pieces[i], int(vs.stm[i])))) - float64(vs.target[i])
		mse += d * d
	}
	if mse /= float64(len(vs.target)); math.Abs(mse-best.Val) > 1e-4 {
		t.Errorf("the best model's validation mse %g, the CSV says %g", mse, best.Val)
	}
	svg, err := os.ReadFile(cfg.Plot)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.TrimSpace(string(svg)), "<?xml") || !strings.Contains(string(svg), "Learning rate") {
		t.Fatalf("%s is not the curves' SVG: %.200s", cfg.Plot, svg)
	}
	// A circle per validation and one in the legend.
	if n := countCircles(string(svg)); n != len(rows)+1 {
		t.Errorf("%d circle glyphs in the SVG, want %d (validations + legend)", n, len(rows)+1)
	}

	// Continued for 10 more steps: the epoch CSV keeps its rows and does not repeat step 45.
	cfg.Model, cfg.Steps, cfg.BestVal, cfg.Plot = out+".last", 10, false, filepath.Join(dir, "v.loss.png")
	if _, err := RunNNUE(context.Background(), cfg, &log); err != nil {
		t.Fatal(err)
	}
	rows, err = ReadEpochCSV(cfg.EpochCSV)
	if err != nil {
		t.Fatal(err)
	}
	steps = steps[:0]
	for _, r := range rows {
		steps = append(steps, r.Step)
	}
	if !slices.Equal(steps, []int64{0, 19, 38, 45, 55}) {
		t.Errorf("after continuing: validated at %v", steps)
	}
	b, err := os.ReadFile(cfg.Plot)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("%s: %v", cfg.Plot, err)
	}
}

// countCircles counts the SVG paths of circle glyphs: a move and two half arcs each.
func countCircles(svg string) int {
	n := 0
	for _, line := range strings.Split(svg, "\n") {
		if strings.Contains(line, "<path") && strings.Count(line, "A") >= 2 {
			n++
		}
	}
	return n
}

// TestNNUESchedule: the default schedule is the cosine every NNUE run had (LR to LR/20 over
// the run), the step schedule drops by LRDrop every LRDropEvery steps, warm-up ramps the first
// steps, and a bad schedule is refused.
func TestNNUESchedule(t *testing.T) {
	base := NNUEConfig{Batch: 64, LR: 1e-3, Steps: 1000}
	tc, err := base.trainerConfig(500)
	if err != nil {
		t.Fatal(err)
	}
	old := Config{Batch: 64, LR: 1e-3, Schedule: Cosine, MinLR: 1e-3 / 20, WeightDecay: -1, ScheduleStart: 500, TotalSteps: 1000}
	for _, s := range []int64{0, 500, 501, 750, 1000, 1499, 1500, 2000} {
		if got, want := tc.LRAt(s), old.LRAt(s); got != want {
			t.Errorf("default schedule at step %d: %g, the old cosine %g", s, got, want)
		}
	}
	st := base
	st.Schedule, st.LRDropEvery, st.Warmup = StepLR, 300, 10
	tc, err = st.trainerConfig(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		step int64
		want float64
	}{{0, 1e-4}, {4, 5e-4}, {9, 1e-3}, {299, 1e-3}, {300, 3e-4}, {650, 9e-5}, {999, 2.7e-5}} {
		if got := tc.LRAt(c.step); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("step schedule at %d: %g, want %g", c.step, got, c.want)
		}
	}
	st.LRDropEvery = 0
	if tc, _ = st.trainerConfig(0); tc.StepEvery != 333 || tc.StepGamma != 0.3 {
		t.Errorf("step defaults: every %d x%g", tc.StepEvery, tc.StepGamma)
	}
	c := base
	c.Schedule = Constant
	if tc, _ = c.trainerConfig(0); tc.LRAt(0) != 1e-3 || tc.LRAt(999) != 1e-3 {
		t.Errorf("constant: %g %g", tc.LRAt(0), tc.LRAt(999))
	}
	for _, bad := range []NNUEConfig{{LR: 1e-3, Schedule: "linear"}, {LR: 1e-3, MinLR: 1e-2}, {LR: 1e-3, Warmup: -1}} {
		bad.Batch, bad.Steps = 64, 10
		if _, err := bad.trainerConfig(0); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestEpochLogFile: an epoch log of another header is refused loudly.
func TestEpochLogFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "e.csv")
	if err := os.WriteFile(p, []byte("step,total\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenEpochLog(p, 0); err == nil || !strings.Contains(err.Error(), "not the epoch log's") {
		t.Errorf("foreign CSV: %v", err)
	}
}

// TestRunNNUEBestValStart: a warm start that training only makes worse (a rate of 3 wrecks the
// net) keeps the start model: its own validation counts as the lowest, the log says so, and no
// log line reads NaN (the start's row has no training loss yet).
func TestRunNNUEBestValStart(t *testing.T) {
	shards := writeShards(t)
	dir := t.TempDir()
	warm := NNUEConfig{Game: ataxx.Info, Arch: windowArch(32, 0), Shards: shards, Steps: 20, Batch: 32, LR: 1e-2,
		Out: filepath.Join(dir, "w.nnue"), Every: 1000, Seed: 1}
	if _, err := RunNNUE(context.Background(), warm, testLog{t}); err != nil {
		t.Fatal(err)
	}
	cfg := NNUEConfig{Game: ataxx.Info, Shards: shards, Model: warm.Out, Steps: 20, Batch: 32, LR: 3,
		Out: filepath.Join(dir, "s.nnue"), Every: 1000, Seed: 2, ValFrac: 0.5, ValEvery: 10, BestVal: true,
		EpochCSV: filepath.Join(dir, "s.csv")}
	var log bytes.Buffer
	if _, err := RunNNUE(context.Background(), cfg, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	rows, err := ReadEpochCSV(cfg.EpochCSV)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 || rows[0].Step != 20 {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows[1:] {
		if r.Val <= rows[0].Val {
			t.Fatalf("a rate of 3 did not make the validation worse: %+v", rows)
		}
	}
	out, err := nnue.Load(cfg.Out)
	if err != nil || out.Step != 20 {
		t.Fatalf("out: %v, step %d; want the start model (step 20)", err, out.Step)
	}
	if !strings.Contains(log.String(), "the start model's own") || strings.Contains(log.String(), "NaN") ||
		!strings.Contains(log.String(), "step 20: validation mse") || !regexp.MustCompile(`step 30: validation mse [0-9.]+ \(results alone [0-9.]+\) training mse [0-9.]+ `).MatchString(log.String()) {
		t.Errorf("log:\n%s", log.String())
	}
}

// TestRunNNUEBestVal: when the validation loss rises (here the step schedule multiplies the
// rate by 300 after step 20, which wrecks the net), BestVal writes the model of the lowest
// validation loss to Out (an earlier step, the one the epoch CSV names) and the last to
// OUT.last; without BestVal, Out is the last.
func TestRunNNUEBestVal(t *testing.T) {
	shards := writeShards(t)
	dir := t.TempDir()
	cfg := NNUEConfig{Game: ataxx.Info, Arch: windowArch(32, 0), Shards: shards, Steps: 40, Batch: 32, LR: 1e-2,
		Schedule: StepLR, LRDrop: 300, LRDropEvery: 20, Out: filepath.Join(dir, "b.nnue"), Every: 1000, Seed: 1,
		ValFrac: 0.5, ValEvery: 10, BestVal: true, EpochCSV: filepath.Join(dir, "b.csv")}
	if _, err := RunNNUE(context.Background(), cfg, testLog{t}); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadEpochCSV(cfg.EpochCSV)
	if err != nil {
		t.Fatal(err)
	}
	best := rows[1]
	for _, r := range rows[1:] {
		if r.Val < best.Val {
			best = r
		}
	}
	if best.Step == 40 {
		t.Fatalf("the validation loss did not rise: %+v", rows)
	}
	out, err1 := nnue.Load(cfg.Out)
	last, err2 := nnue.Load(cfg.Out + ".last")
	if err1 != nil || err2 != nil || out.Step != best.Step || last.Step != 40 {
		t.Fatalf("out step %d (%v), last step %d (%v); the lowest validation loss at step %d", out.Step, err1, last.Step, err2, best.Step)
	}
	bad := cfg
	bad.ValEvery = -1
	if _, err := RunNNUE(context.Background(), bad, testLog{t}); err == nil {
		t.Error("a negative validation period accepted")
	}
	cfg.BestVal, cfg.Out, cfg.EpochCSV = false, filepath.Join(dir, "n.nnue"), ""
	if m, err := RunNNUE(context.Background(), cfg, testLog{t}); err != nil || m.Step != 40 {
		t.Fatalf("without BestVal: %v, step %d", err, m.Step)
	}
	if _, err := os.Stat(cfg.Out + ".last"); !os.IsNotExist(err) {
		t.Errorf("without BestVal: %s.last: %v", cfg.Out, err)
	}
}
