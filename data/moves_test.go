package data

import (
	"cmp"
	"encoding/binary"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// gameMoves makes up moves for every game of exs (enough to cover each example's ply).
func gameMoves(exs []Example) []GameMoves {
	n := map[uint64]int{}
	for _, ex := range exs {
		n[ex.GameID] = max(n[ex.GameID], ex.Ply+1)
	}
	var out []GameMoves
	for id, k := range n {
		g := GameMoves{GameID: id}
		for i := range k {
			g.Moves = append(g.Moves, int32((i*7+int(id))%50))
		}
		out = append(out, g)
	}
	return out
}

// TestMovesRoundTrip: a shard with moves is written as version 3 and its moves come back
// sorted by game; one without stays version 2; a version 3 shard missing a game's moves is
// refused at write time, and a damaged moves section is ErrCorrupt.
func TestMovesRoundTrip(t *testing.T) {
	exs := genAtaxx(3, 150)
	meta := testMeta()
	meta.Moves = gameMoves(exs)
	buf, err := EncodeShard(meta, exs)
	if err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint32(buf[8:]); v != 3 {
		t.Fatalf("a shard with moves is version %d, want 3", v)
	}
	got, gotExs, err := DecodeShard(buf, Expect{})
	if err != nil || len(gotExs) != len(exs) {
		t.Fatalf("decode: %d examples, %v", len(gotExs), err)
	}
	want := slices.Clone(meta.Moves)
	slices.SortFunc(want, func(a, b GameMoves) int { return cmp.Compare(a.GameID, b.GameID) })
	if len(got.Moves) != len(want) {
		t.Fatalf("%d games back, want %d", len(got.Moves), len(want))
	}
	for i := range want {
		if got.Moves[i].GameID != want[i].GameID || !slices.Equal(got.Moves[i].Moves, want[i].Moves) {
			t.Fatalf("game %d: %+v, want %+v", i, got.Moves[i], want[i])
		}
	}

	plain, err := EncodeShard(testMeta(), exs)
	if err != nil || binary.LittleEndian.Uint32(plain[8:]) != 2 {
		t.Fatalf("a shard without moves: %v, version %d, want 2", err, binary.LittleEndian.Uint32(plain[8:]))
	}

	short := testMeta()
	short.Moves = meta.Moves[1:]
	if _, err := EncodeShard(short, exs); err == nil {
		t.Fatal("a shard missing a game's moves was written")
	}

	// Writer.AddGame keeps games whole and writes version 3 shards.
	dir := t.TempDir()
	w, err := Create(dir, testMeta(), 40)
	if err != nil {
		t.Fatal(err)
	}
	w.Name = func(m *Meta) string { return filepath.Join("net", "0", "x"+ShardExt) }
	byGame := map[uint64][]Example{}
	for _, ex := range exs {
		byGame[ex.GameID] = append(byGame[ex.GameID], ex)
	}
	for _, g := range meta.Moves {
		if err := w.AddGame(g, byGame[g.GameID]); err != nil {
			t.Fatal(err)
		}
		break // one game, written at Close
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	m, _, err := ReadShard(filepath.Join(dir, "net", "0", "x"+ShardExt))
	if err != nil || len(m.Moves) != 1 {
		t.Fatalf("writer shard: %d games of moves, %v", len(m.Moves), err)
	}
}

func TestMovesCorrupt(t *testing.T) {
	exs := genAtaxx(5, 60)
	meta := testMeta()
	meta.Moves = gameMoves(exs)
	buf, err := EncodeShard(meta, exs)
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(buf)
	bad[len(bad)/2] ^= 0x10
	if _, _, err := DecodeShard(bad, Expect{}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("flipped byte: %v, want ErrCorrupt", err)
	}
}
