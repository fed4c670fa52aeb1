package contract

import (
	"bytes"
	"strings"
	"testing"
)

func TestBookRoundTripAndChecks(t *testing.T) {
	info := Info{Name: "toy", EncoderVersion: 3}
	b := NewBook(info)
	b.Moves["..x/... 0"] = Coords{1, 2, 3, 4}
	b.Moves["x../... 1"] = PassCoords
	var w1, w2 bytes.Buffer
	if err := b.Write(&w1); err != nil {
		t.Fatal(err)
	}
	_ = b.Write(&w2)
	if !bytes.Equal(w1.Bytes(), w2.Bytes()) {
		t.Fatal("two writes differ")
	}
	got, err := ReadBook(w1.Bytes(), info)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Moves) != 2 || got.Moves["..x/... 0"] != (Coords{1, 2, 3, 4}) || got.Moves["x../... 1"] != PassCoords {
		t.Fatalf("read back %v", got.Moves)
	}
	data := w1.String()
	for name, c := range map[string]struct {
		data string
		info Info
		want string
	}{
		"other game":    {data, Info{Name: "other", EncoderVersion: 3}, "for toy"},
		"other encoder": {data, Info{Name: "toy", EncoderVersion: 4}, "encoder version"},
		"edited":        {strings.Replace(data, "1 2 3 4", "1 2 3 5", 1), info, "checksum"},
		"truncated":     {data[:len(data)/2], info, "sha256"},
		"not a book":    {"hello\n", info, "sha256"},
	} {
		if _, err := ReadBook([]byte(c.data), c.info); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, c.want)
		}
	}
}
