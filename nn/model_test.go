package nn

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"colony/game/ataxx"
)

func encodeModel(t *testing.T, m *Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestModelRoundTrip(t *testing.T) {
	m := testModel(ArchFor(ataxx.Info, 2, 8), 1)
	m.Step = 12345
	m.Meta = map[string]string{"run": "test", "lr": "0.002"}
	path := filepath.Join(t.TempDir(), "model.bin")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("loaded model differs from the saved one")
	}
	if got.SHA256() != m.SHA256() || len(m.SHA256()) != 64 {
		t.Fatalf("SHA256 %q vs %q", got.SHA256(), m.SHA256())
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("folder holds %d entries after Save, want 1", len(entries))
	}
	// A change of one weight changes the hash.
	got.Weights.ValueFC2.B[0] += 1
	if got.SHA256() == m.SHA256() {
		t.Fatal("SHA256 does not depend on the weights")
	}
}

func TestModelFileCorruption(t *testing.T) {
	m := testModel(ArchFor(ataxx.Info, 1, 4), 2)
	m.Meta = map[string]string{"k": "v"}
	good := encodeModel(t, m)
	read := func(b []byte) error {
		_, err := Read(bytes.NewReader(b))
		return err
	}
	if err := read(good); err != nil {
		t.Fatal(err)
	}
	mutate := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	gameLen := len(m.Arch.Game)
	archOff := 8 + 4 + 2 + gameLen + 4 // start of the 10 arch dims
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"flipped weight byte", mutate(func(b []byte) []byte { b[len(b)-5] ^= 0x40; return b }), "SHA-256 checksum"},
		{"flipped hash byte", mutate(func(b []byte) []byte { b[len(b)-int(m.Arch.NumWeights())*4-9] ^= 1; return b }), "SHA-256 checksum"},
		{"wrong magic", mutate(func(b []byte) []byte { b[0] = 'X'; return b }), "magic"},
		{"wrong version", mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 99); return b }), "format version 99"},
		{"arch with more blocks", mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[archOff+12:], 2); return b }), "needs"},
		{"absurd channels", mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[archOff+16:], 1<<30); return b }), "channels"},
		{"trailing bytes", mutate(func(b []byte) []byte { return append(b, 0) }), "trailing"},
		{"empty", nil, "truncated while reading magic"},
	}
	for _, c := range cases {
		err := read(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	// Every truncation is reported as such.
	for _, n := range []int{3, 10, 13, archOff + 5, archOff + 41, archOff + 50, len(good) - 100, len(good) - 1} {
		err := read(good[:n])
		if err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("truncated to %d of %d bytes: error %v, want one mentioning truncation", n, len(good), err)
		}
	}
}

func TestModelCheck(t *testing.T) {
	m := NewRandom(ArchFor(ataxx.Info, 1, 4), 3)
	if err := m.Check("bacteria-war", ataxx.EncoderVersion); err != nil {
		t.Fatal(err)
	}
	err := m.Check("go", ataxx.EncoderVersion)
	if err == nil || !strings.Contains(err.Error(), `"bacteria-war"`) || !strings.Contains(err.Error(), `"go"`) || strings.Contains(err.Error(), "encoder") {
		t.Errorf("wrong game: %v", err)
	}
	err = m.Check("bacteria-war", ataxx.EncoderVersion+1)
	if err == nil || !strings.Contains(err.Error(), "encoder version") || strings.Contains(err.Error(), "game") {
		t.Errorf("wrong encoder: %v", err)
	}
}

func TestWriteRefusesMisshapenWeights(t *testing.T) {
	m := NewRandom(ArchFor(ataxx.Info, 2, 4), 4)
	m.Weights.Blocks = m.Weights.Blocks[:1]
	if err := m.Write(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "blocks") {
		t.Errorf("error %v, want one about the blocks", err)
	}
	m = NewRandom(ArchFor(ataxx.Info, 2, 4), 4)
	m.Weights.PolicyFC.B = m.Weights.PolicyFC.B[:3]
	if err := m.Write(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "policy.fc.b") {
		t.Errorf("error %v, want one naming policy.fc.b", err)
	}
}
