package nnue

import (
	"math"
	"strings"
	"testing"
)

func TestAverageIsTheWeightwiseMean(t *testing.T) {
	a := bucketed(windowArch(32, 0, SCReLU), 4)
	m1, m2, m3 := NewRandom(a, 1), NewRandom(a, 2), NewRandom(a, 3)
	m1.Step, m2.Step, m3.Step = 10, 30, 20
	m1.Meta["parent"] = "x"
	avg, err := Average(m1, m2, m3)
	if err != nil {
		t.Fatal(err)
	}
	if avg.Arch != a || avg.Step != 30 || avg.Meta["parent"] != "x" {
		t.Fatalf("arch %s step %d meta %v", avg.Arch, avg.Step, avg.Meta)
	}
	if from := strings.Split(avg.Meta["averaged_from"], ","); len(from) != 3 || from[1] != m2.SHA256() {
		t.Fatalf("averaged_from %q", avg.Meta["averaged_from"])
	}
	ts, t1, t2, t3 := avg.Weights.Tensors(a), m1.Weights.Tensors(a), m2.Weights.Tensors(a), m3.Weights.Tensors(a)
	n := 0
	for i := range ts {
		for j, x := range *ts[i].Data {
			want := ((*t1[i].Data)[j] + (*t2[i].Data)[j] + (*t3[i].Data)[j]) / 3
			if math.Abs(float64(x-want)) > 1e-6 {
				t.Fatalf("tensor %d weight %d: %v, want %v", i, j, x, want)
			}
			n++
		}
	}
	if n != a.NumWeights() {
		t.Fatalf("%d weights compared, the arch has %d", n, a.NumWeights())
	}
	// The mean of a net with itself is the net.
	self, err := Average(m1, m1)
	if err != nil {
		t.Fatal(err)
	}
	if self.SHA256() != m1.SHA256() {
		t.Fatal("the mean of a net with itself changed its weights")
	}
	_, back := writeRead(t, avg)
	if back.SHA256() != avg.SHA256() || back.Meta["averaged_from"] != avg.Meta["averaged_from"] {
		t.Fatal("the averaged net did not survive a write and a read")
	}
}

func TestAverageRefusesMixedNets(t *testing.T) {
	a := bucketed(windowArch(32, 0, SCReLU), 4)
	b := bucketed(windowArch(48, 0, SCReLU), 4)
	if _, err := Average(NewRandom(a, 1)); err == nil {
		t.Fatal("one net averaged")
	}
	_, err := Average(NewRandom(a, 1), NewRandom(b, 2))
	if err == nil || !strings.Contains(err.Error(), "model 1") {
		t.Fatalf("nets of two widths: err %v", err)
	}
	c := a
	c.Game = "other"
	if _, err := Average(NewRandom(a, 1), NewRandom(c, 2)); err == nil {
		t.Fatal("nets of two games averaged")
	}
}
