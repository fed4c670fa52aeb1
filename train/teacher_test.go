package train

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"colony/game/ataxx"
	"colony/nn/nnue"
)

// TestRunNNUETeacher: a teacher's value blends into the training targets at its weight and
// nowhere else. With the start net as its own teacher at weight 1 the first step's loss is
// zero (the target is the net's own value); at weight 1/2 it is a quarter of the loss without
// a teacher on the same batch ((v - (y+v)/2)^2 = (v-y)^2/4); the validation keeps the shards'
// targets; the model records its teacher; bad settings are refused.
func TestRunNNUETeacher(t *testing.T) {
	shards := writeShards(t)
	dir := t.TempDir()
	start := filepath.Join(dir, "start.nnue")
	if err := nnue.NewRandom(windowArch(32, 0), 7).Save(start); err != nil {
		t.Fatal(err)
	}
	run := func(name, teacher string, w float64) (first, val float64, m *nnue.Model) {
		t.Helper()
		out := filepath.Join(dir, name+".nnue")
		cfg := NNUEConfig{Game: ataxx.Info, Symmetries: ataxx.Symmetries{}, Model: start, Shards: shards,
			Steps: 3, Batch: 32, LR: 1e-3, Out: out, Every: 1000, Seed: 5, ValFrac: 0.5,
			EpochCSV: out + ".epochs.csv", CSV: out + ".csv", Teacher: teacher, TeacherWeight: w}
		m, err := RunNNUE(context.Background(), cfg, testLog{t})
		if err != nil {
			t.Fatal(err)
		}
		steps, err := ReadLossCSV(cfg.CSV)
		if err != nil || len(steps) != 3 {
			t.Fatalf("%s: loss rows %v, %v", name, steps, err)
		}
		rows, err := ReadEpochCSV(cfg.EpochCSV)
		if err != nil || len(rows) == 0 {
			t.Fatalf("%s: validation rows %v, %v", name, rows, err)
		}
		return steps[0].Total, rows[0].Val, m
	}
	none, valNone, _ := run("none", "", 0)
	self, valSelf, m := run("self", start, 1)
	half, valHalf, _ := run("half", start, 0.5)
	if !(none > 0.01) || self > 1e-9 || math.Abs(half-none/4) > 1e-5*none {
		t.Errorf("first-step losses: no teacher %g, itself at weight 1 %g (want 0), at 1/2 %g (want %g)", none, self, half, none/4)
	}
	if valSelf != valNone || valHalf != valNone {
		t.Errorf("validation at the start %g and %g with a teacher, %g without: the split keeps the shards' targets", valSelf, valHalf, valNone)
	}
	teacher, err := nnue.Load(start)
	if err != nil {
		t.Fatal(err)
	}
	if m.Meta["train.teacher_sha256"] != teacher.SHA256() || m.Meta["train.teacher_weight"] != "1" {
		t.Errorf("the model's metadata does not name its teacher: %v", m.Meta)
	}
	other := nnue.NewRandom(nnueArch(32, 0), 1)
	other.Arch.Game = "slime"
	slime := filepath.Join(dir, "slime.nnue")
	if err := other.Save(slime); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		teacher string
		w       float64
	}{{start, 0}, {"", 0.5}, {start, 1.5}, {start, -0.1}, {slime, 0.5}, {filepath.Join(dir, "absent.nnue"), 0.5}} {
		cfg := NNUEConfig{Game: ataxx.Info, Model: start, Shards: shards, Steps: 1, Batch: 32, Out: filepath.Join(dir, "x.nnue"),
			Teacher: c.teacher, TeacherWeight: c.w}
		if _, err := RunNNUE(context.Background(), cfg, testLog{t}); err == nil {
			t.Errorf("teacher %q at weight %v was accepted", c.teacher, c.w)
		}
	}
}
