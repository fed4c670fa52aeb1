package arena

import (
	"strings"
	"testing"
)

func TestTailWriter(t *testing.T) {
	w := &tailWriter{max: 8}
	w.Write([]byte("abc"))
	if got := w.String(); got != "abc" {
		t.Fatalf("short: %q", got)
	}
	w.Write([]byte("defgh"))
	if got := w.String(); got != "abcdefgh" {
		t.Fatalf("exact: %q", got)
	}
	w.Write([]byte(strings.Repeat("x", 20) + "12345678"))
	if got := w.String(); got != "abcd\n[...]\n12345678" {
		t.Fatalf("long: %q", got)
	}
}
