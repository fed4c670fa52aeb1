package nnue

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// asmInstr is one instruction of the compiler's listing: its mnemonic and operands.
type asmInstr struct{ op, args string }

var (
	listingFunc  = regexp.MustCompile(`^(\S+) STEXT`)
	listingInstr = regexp.MustCompile(`^\s+0x[0-9a-f]+ \d+ \([^)]*\)\s+([A-Z][A-Z0-9]*)\s*(.*)$`)
	ymmReg       = regexp.MustCompile(`\bY\d+\b`)
	xmmReg       = regexp.MustCompile(`\bX\d+\b`)
)

// parseListing splits a `go build -gcflags=-S` listing into its functions' instructions.
func parseListing(s string) map[string][]asmInstr {
	fns := map[string][]asmInstr{}
	fn := ""
	for line := range strings.SplitSeq(s, "\n") {
		if m := listingFunc.FindStringSubmatch(line); m != nil {
			fn = m[1]
			continue
		}
		if m := listingInstr.FindStringSubmatch(line); m != nil && fn != "" {
			fns[fn] = append(fns[fn], asmInstr{m[1], m[2]})
		}
	}
	return fns
}

// legacySSEAfterAVX returns the instructions of fn that touch an XMM register without a VEX
// encoding (legacy SSE: MOVQ to X, MOVUPS, ADDSS, ...) while the 256-bit state may be dirty:
// after its first instruction on a YMM register and not after a VZEROUPPER that follows its
// last one; and whether it ends its 256-bit code with a VZEROUPPER.
func legacySSEAfterAVX(ins []asmInstr) (bad []string, cleared bool) {
	first, last := -1, -1
	for i, in := range ins {
		if ymmReg.MatchString(in.args) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return nil, true
	}
	clean := false
	for i, in := range ins[first:] {
		switch {
		case in.op == "VZEROUPPER" && first+i > last:
			clean = true
		case !strings.HasPrefix(in.op, "V") && xmmReg.MatchString(in.args) && !clean:
			bad = append(bad, in.op+" "+in.args)
		}
	}
	return bad, clean
}

// TestSIMDKernelsNoLegacySSE reads the compiler's listing of this package built with
// GOEXPERIMENT=simd and checks every function with 256-bit code: no legacy-SSE instruction
// while the upper halves may be dirty, and a VZEROUPPER after its last 256-bit instruction.
// Some CPUs charge hundreds of cycles for each such switch (simd_amd64.go); one legacy MOVQ
// in the SCReLU kernel's loop made the search 3.4 times slower than the portable build. The
// kernels must all be in the listing with 256-bit code, so a change of its format cannot
// pass unseen.
func TestSIMDKernelsNoLegacySSE(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the AVX2 kernels are amd64 only")
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		if gobin, err = exec.LookPath("go"); err != nil {
			t.Fatalf("no go command to list the kernels with: %v", err)
		}
	}
	cmd := exec.Command(gobin, "build", "-gcflags=colony/nn/nnue=-S", "-o", os.DevNull, ".")
	cmd.Env = append(os.Environ(), "GOEXPERIMENT=simd")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-S: %v\n%s", err, out)
	}
	fns := parseListing(string(out))
	for _, k := range []string{"dotSqSIMD", "dotClipSIMD", "sumLanes", "addRowSIMD", "subRowSIMD", "tradeRowsSIMD", "dotSq2SIMD", "sumLanes2"} {
		ins := fns["colony/nn/nnue."+k]
		if len(ins) == 0 {
			t.Errorf("%s is not in the listing (%d functions read)", k, len(fns))
			continue
		}
		if !slices.ContainsFunc(ins, func(in asmInstr) bool { return ymmReg.MatchString(in.args) }) {
			t.Errorf("%s: no 256-bit instruction read in its listing", k)
		}
	}
	for fn, ins := range fns {
		bad, cleared := legacySSEAfterAVX(ins)
		if len(bad) > 0 {
			t.Errorf("%s: legacy SSE while the 256-bit state may be dirty: %q", fn, bad)
		}
		if !cleared {
			t.Errorf("%s: no VZEROUPPER after its last 256-bit instruction", fn)
		}
	}
}

// TestLegacySSEAfterAVX: the listing check on hand-made instruction lists.
func TestLegacySSEAfterAVX(t *testing.T) {
	y := asmInstr{"VPADDW", "Y1, Y2, Y2"}
	vz := asmInstr{"VZEROUPPER", ""}
	sse := asmInstr{"MOVQ", "BX, X6"}
	vex := asmInstr{"VMOVQ", "BX, X6"}
	for _, c := range []struct {
		name    string
		ins     []asmInstr
		bad     int
		cleared bool
	}{
		{"no 256-bit code", []asmInstr{sse}, 0, true},
		{"SSE before, cleared", []asmInstr{sse, y, vex, vz, sse}, 0, true},
		{"SSE in the loop", []asmInstr{y, sse, y, vz}, 1, true},
		{"not cleared", []asmInstr{y, vex}, 0, false},
		{"SSE after the last 256-bit op, before clearing", []asmInstr{y, sse, vz}, 1, true},
		{"cleared too early", []asmInstr{y, vz, y, sse}, 1, false},
	} {
		bad, cleared := legacySSEAfterAVX(c.ins)
		if len(bad) != c.bad || cleared != c.cleared {
			t.Errorf("%s: %d bad, cleared %v; want %d, %v", c.name, len(bad), cleared, c.bad, c.cleared)
		}
	}
}
