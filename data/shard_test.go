package data

import (
	"bytes"
	"colony/game/ataxx"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRoundTripAtaxx(t *testing.T) {
	exs := genAtaxx(1, 700)
	path := filepath.Join(t.TempDir(), "a.shard")
	meta := testMeta()
	if err := WriteShard(path, meta, exs); err != nil {
		t.Fatal(err)
	}
	got, back, err := ReadShard(path)
	if err != nil {
		t.Fatal(err)
	}
	want := meta
	want.Examples = len(exs)
	games := map[uint64]bool{}
	for _, e := range exs {
		games[e.GameID] = true
	}
	want.Games = len(games)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("meta:\n got %+v\nwant %+v", got, want)
	}
	if len(back) != len(exs) {
		t.Fatalf("read %d examples, wrote %d", len(back), len(exs))
	}
	for i := range exs {
		if !sameExample(t, "example", exs[i], back[i]) {
			t.Fatalf("example %d differs", i)
		}
	}
}

// TestRoundTripAllPlaneKinds covers every packing tag, including -0.0, NaN payloads, and
// values that look binary except for one cell.
func TestRoundTripAllPlaneKinds(t *testing.T) {
	const planes, cells = 7, 10
	meta := Meta{Game: "synthetic", EncoderVersion: 0, InputSize: planes * cells, PolicySize: 70000, PlaneSize: cells}
	rng := rand.New(rand.NewPCG(3, 4))
	var exs []Example
	for i := range 50 {
		in := make([]float32, planes*cells)
		for c := range cells {
			in[1*cells+c] = 1                                // all ones
			in[2*cells+c] = 0.375                            // constant
			in[3*cells+c] = float32(rng.IntN(2))             // bitmap
			in[4*cells+c] = rng.Float32()*2 - 1              // raw
			in[5*cells+c] = float32(math.Copysign(0, -1))    // -0.0 is not the zero tag
			in[6*cells+c] = math.Float32frombits(0x7fc00001) // NaN with payload
		}
		in[3*cells+9] = 2 // breaks the bitmap: raw
		if i%2 == 0 {
			in[3*cells+9] = 1
		}
		exs = append(exs, Example{
			Input:  in,
			Policy: []PolicyEntry{{Index: 69999, Prob: 0.25}, {Index: 0, Prob: 0.75}},
			Values: [4]float32{0.5, -1, 0.25, 1},
			GameID: math.MaxUint64 - uint64(i),
			Ply:    i * 1000,
		})
	}
	path := filepath.Join(t.TempDir(), "s.shard")
	if err := WriteShard(path, meta, exs); err != nil {
		t.Fatal(err)
	}
	m, back, err := ReadShard(path)
	if err != nil {
		t.Fatal(err)
	}
	if m.Game != "synthetic" || m.PlaneSize != cells || m.PolicySize != 70000 || m.Examples != 50 || m.Games != 50 {
		t.Errorf("meta %+v", m)
	}
	for i := range exs {
		if !sameExample(t, "example", exs[i], back[i]) {
			t.Fatalf("example %d differs", i)
		}
	}
}

func TestWriteRejectsBadExamples(t *testing.T) {
	good := genAtaxx(2, 1)[0]
	meta := MetaFor(ataxx.Info)
	cases := map[string]func(e *Example){
		"short input":     func(e *Example) { e.Input = e.Input[:10] },
		"no policy":       func(e *Example) { e.Policy = nil },
		"index too big":   func(e *Example) { e.Policy = []PolicyEntry{{Index: int32(meta.PolicySize), Prob: 1}} },
		"negative index":  func(e *Example) { e.Policy = []PolicyEntry{{Index: -1, Prob: 1}} },
		"sum not 1":       func(e *Example) { e.Policy = []PolicyEntry{{Index: 1, Prob: 0.5}} },
		"NaN probability": func(e *Example) { e.Policy = []PolicyEntry{{Index: 1, Prob: float32(math.NaN())}} },
		"negative ply":    func(e *Example) { e.Ply = -1 },
	}
	for name, mutate := range cases {
		e := good
		e.Input = append([]float32(nil), good.Input...)
		mutate(&e)
		if _, err := EncodeShard(meta, []Example{good, e}); err == nil || !strings.Contains(err.Error(), "example 1") {
			t.Errorf("%s: err = %v, want an error naming example 1", name, err)
		}
	}
	bad := meta
	bad.PlaneSize = 50
	if _, err := EncodeShard(bad, nil); err == nil {
		t.Error("plane size 50 with input 294 accepted")
	}
	bad = meta
	bad.Game = ""
	if _, err := EncodeShard(bad, nil); err == nil {
		t.Error("empty game name accepted")
	}
}

func smallShard(t *testing.T) []byte {
	t.Helper()
	buf, err := EncodeShard(testMeta(), genAtaxx(5, 12))
	if err != nil {
		t.Fatal(err)
	}
	return buf
}

func TestEveryFlippedByteDetected(t *testing.T) {
	buf := smallShard(t)
	t.Logf("shard of 12 examples: %d bytes", len(buf))
	for i := range buf {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			c := bytes.Clone(buf)
			c[i] ^= mask
			_, err := decodeShard(c, &Expect{})
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("byte %d ^ %#x: err = %v, want ErrCorrupt", i, mask, err)
			}
		}
	}
}

func TestEveryTruncationDetected(t *testing.T) {
	buf := smallShard(t)
	for n := range len(buf) {
		_, err := decodeShard(buf[:n], &Expect{})
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d of %d bytes: err = %v, want ErrCorrupt", n, len(buf), err)
		}
	}
	_, err := decodeShard(buf[:len(buf)-100], &Expect{})
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncation error %v does not say truncated", err)
	}
	if _, err := decodeShard(append(bytes.Clone(buf), 0), &Expect{}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("one byte appended: err = %v, want ErrCorrupt", err)
	}
}

// reseal recomputes the checksum after a deliberate header edit.
func reseal(buf []byte) []byte {
	body := buf[:len(buf)-checksumLen]
	sum := sha256.Sum256(body)
	copy(buf[len(body):], sum[:])
	return buf
}

func TestMismatchRefused(t *testing.T) {
	buf := smallShard(t)
	cases := []struct {
		want Expect
		msg  string
	}{
		{Expect{Game: "mouse", EncoderVersion: 1}, `game "bacteria-war", want "mouse"`},
		{Expect{Game: "bacteria-war", EncoderVersion: 2}, "encoder version 1, want 2"},
		{Expect{InputSize: 100}, "input size 294, want 100"},
		{Expect{PolicySize: 100}, "policy size 834, want 100"},
	}
	for _, c := range cases {
		_, err := decodeShard(buf, &c.want)
		if !errors.Is(err, ErrMismatch) || errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%+v: err = %v, want ErrMismatch saying %q", c.want, err, c.msg)
		}
	}
	if _, err := decodeShard(buf, &Expect{Game: "bacteria-war", EncoderVersion: 1, InputSize: 294, PolicySize: 834}); err != nil {
		t.Errorf("matching expectation refused: %v", err)
	}
	future := bytes.Clone(buf)
	binary.LittleEndian.PutUint32(future[8:], FormatVersion+1)
	_, err := decodeShard(reseal(future), &Expect{})
	if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), fmt.Sprintf("format version %d", FormatVersion+1)) {
		t.Errorf("future version: err = %v", err)
	}
}

// A scored shard keeps every example's Scores; an unscored one reads them as zero; a version
// 1 shard (no flags, no scores) is still read; the score flag in a version 1 shard is refused.
func TestScoresRoundTrip(t *testing.T) {
	exs := genAtaxx(11, 40)
	for i := range exs {
		exs[i].Scores = [4]float32{float32(i) / 50, -float32(i) / 50}
	}
	meta := testMeta()
	meta.Scored = true
	buf, err := EncodeShard(meta, exs)
	if err != nil {
		t.Fatal(err)
	}
	s, err := decodeShard(buf, &Expect{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.meta.Scored {
		t.Fatal("scored flag lost")
	}
	got := s.examples()
	for i := range exs {
		if got[i].Scores != exs[i].Scores || got[i].Values != exs[i].Values {
			t.Fatalf("example %d: scores %v values %v, want %v %v", i, got[i].Scores, got[i].Values, exs[i].Scores, exs[i].Values)
		}
	}
	var one Example
	s.example(7, &one)
	if one.Scores != exs[7].Scores || !one.Scored || !got[3].Scored {
		t.Fatalf("example(7) scores %v, want %v", one.Scores, exs[7].Scores)
	}
	meta.Scored = false
	plain, err := EncodeShard(meta, exs)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) >= len(buf) {
		t.Errorf("unscored shard (%d bytes) not smaller than the scored one (%d)", len(plain), len(buf))
	}
	s, err = decodeShard(plain, &Expect{})
	if err != nil {
		t.Fatal(err)
	}
	if s.meta.Scored || s.examples()[7].Scores != ([4]float32{}) || s.examples()[7].Scored {
		t.Fatal("unscored shard read with scores")
	}
	v1 := bytes.Clone(plain)
	binary.LittleEndian.PutUint32(v1[8:], 1)
	if _, err := decodeShard(reseal(v1), &Expect{}); err != nil {
		t.Errorf("version 1 shard refused: %v", err)
	}
	v1s := bytes.Clone(buf)
	binary.LittleEndian.PutUint32(v1s[8:], 1)
	if _, err := decodeShard(reseal(v1s), &Expect{}); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "flags") {
		t.Errorf("score flag in a version 1 shard: err = %v", err)
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadDirSkipsCorruptAndTemp(t *testing.T) {
	dir := t.TempDir()
	good := genAtaxx(7, 30)
	meta := testMeta()
	if err := WriteShard(filepath.Join(dir, "a.shard"), meta, good[:20]); err != nil {
		t.Fatal(err)
	}
	buf, err := EncodeShard(meta, good[20:])
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(buf)
	flipped[len(flipped)/2] ^= 4
	writeFile(t, filepath.Join(dir, "b.shard"), flipped)
	writeFile(t, filepath.Join(dir, "c.shard"), buf[:len(buf)/3])
	writeFile(t, filepath.Join(dir, "d.shard"), nil)
	writeFile(t, filepath.Join(dir, ".e.shard.123.tmp"), buf) // a whole shard, but unfinished by name
	writeFile(t, filepath.Join(dir, ".f.shard"), buf)
	writeFile(t, filepath.Join(dir, "notes.txt"), []byte("hello"))
	if err := WriteShard(filepath.Join(dir, "g.shard"), meta, good[25:]); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	exs, rep, err := LoadDir(dir, "bacteria-war", 1, &warn)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Shards != 5 || rep.Loaded != 2 || rep.Corrupt != 3 || rep.TempFiles != 1 || rep.Examples != 25 || len(exs) != 25 {
		t.Errorf("report %+v, %d examples", rep, len(exs))
	}
	lines := strings.Split(strings.TrimSpace(warn.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("warnings:\n%s", warn.String())
	}
	for i, name := range []string{"b.shard", "c.shard", "d.shard"} {
		if !strings.Contains(lines[i], name) || !strings.Contains(lines[i], "corrupt") {
			t.Errorf("warning %q does not name %s as corrupt", lines[i], name)
		}
	}
	if !strings.Contains(warn.String(), "truncated") {
		t.Errorf("no truncation named in warnings:\n%s", warn.String())
	}
	// Files written in this order within a second may share an mtime: order by name then.
	for i, e := range append(append([]Example{}, good[:20]...), good[25:]...) {
		sameExample(t, "loaded", e, exs[i])
	}

	if _, _, err := LoadDir(dir, "mouse", 1, &warn); !errors.Is(err, ErrMismatch) {
		t.Errorf("wrong game: err = %v", err)
	}
	if _, _, err := LoadDir(dir, "bacteria-war", 2, &warn); !errors.Is(err, ErrMismatch) {
		t.Errorf("wrong encoder: err = %v", err)
	}
}

func TestWriterShardsAndLeavesNoTemp(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	w, err := Create(dir, testMeta(), 100)
	if err != nil {
		t.Fatal(err)
	}
	exs := genAtaxx(9, 250)
	for _, e := range exs {
		if err := w.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	if w.Pending() != 50 || len(w.Paths()) != 2 {
		t.Errorf("pending %d, %d shards", w.Pending(), len(w.Paths()))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	bad := exs[0]
	bad.Policy = nil
	if err := w.Add(bad); err == nil {
		t.Error("writer accepted an example without policy")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Errorf("%d files in the directory, want 3 shards", len(ents))
	}
	var all []Example
	for _, p := range w.Paths() {
		m, e, err := ReadShard(p)
		if err != nil {
			t.Fatal(err)
		}
		if m.Examples != len(e) || m.Generation != 3 {
			t.Errorf("%s: meta %+v", p, m)
		}
		all = append(all, e...)
	}
	if len(all) != len(exs) {
		t.Fatalf("%d examples back, want %d", len(all), len(exs))
	}
	for i := range exs {
		if !sameExample(t, "writer", exs[i], all[i]) {
			break
		}
	}
}

func TestWriteShardFailsWithoutDir(t *testing.T) {
	err := WriteShard(filepath.Join(t.TempDir(), "missing", "x.shard"), testMeta(), genAtaxx(1, 2))
	if err == nil || !strings.Contains(err.Error(), "temp") {
		t.Errorf("err = %v", err)
	}
}
