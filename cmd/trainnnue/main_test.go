package main

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/data"
	"colony/game/ataxx"
	"colony/nn/nnue"
)

// TestTrainAndEval: a short run writes a loadable model; -eval reads it back; bad flags exit 2.
func TestTrainAndEval(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	if err := os.MkdirAll(shards, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	var exs []data.Example
	for g := range 10 {
		p := ataxx.Start()
		for ply := 0; ply < 30 && !p.Terminal(); ply++ {
			in := make([]float32, ataxx.InputSize)
			p.Encode(in)
			v := float32(p.Count(0)-p.Count(1)) / 49
			exs = append(exs, data.Example{Input: in, Values: [4]float32{v, -v}, GameID: uint64(g), Ply: ply,
				Policy: []data.PolicyEntry{{Index: 0, Prob: 1}}})
			ms := p.LegalMoves(nil)
			p = p.Apply(ms[rng.IntN(len(ms))])
		}
	}
	if err := data.WriteShard(filepath.Join(shards, "a.shard"), data.MetaFor(ataxx.Info), exs); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.nnue")
	var log bytes.Buffer
	if code := run(context.Background(), []string{"-shards", shards, "-out", out, "-hidden", "16", "-steps", "20", "-batch", "32"}, &log); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, log.String())
	}
	m, err := nnue.Load(out)
	if err != nil || m.Step != 20 || m.Arch.Hidden != 16 {
		t.Fatalf("trained model: %v (%+v)", err, m)
	}
	sq := filepath.Join(dir, "sq.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-out", sq, "-hidden", "16", "-steps", "5", "-batch", "32", "-activation", "screlu"}, &log); code != 0 {
		t.Fatalf("train screlu: exit %d\n%s", code, log.String())
	}
	if m, err := nnue.Load(sq); err != nil || m.Arch.Activation != nnue.SCReLU {
		t.Fatalf("-activation screlu: %v (%+v)", err, m)
	}
	log.Reset()
	if code := run(context.Background(), []string{"-model", out, "-eval", shards}, &log); code != 0 || !strings.Contains(log.String(), "value MSE") {
		t.Fatalf("-eval: exit %d\n%s", code, log.String())
	}
	for _, args := range [][]string{{"-out", out}, {"-shards", shards}, {"-shards", shards, "-out", out, "-game", "nope"}, {"-shards", shards, "-out", out, "-activation", "gelu"}} {
		if code := run(context.Background(), args, &log); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}
