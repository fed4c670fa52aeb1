package judge

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"colony/contract"
	"colony/game/ataxx"
)

// transcript returns the judge's side of the first plies of a game in which both sides play
// random legal moves: the TURN lines stand where the agent moves and the OPP lines carry the
// opponent's. It stays short: the fuzzer minimises every new input it finds, and long seeds
// make that slow.
func transcript(me int, eol string, seed uint64, plies int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "READY %s%s", []string{"FIRST", "SECOND"}[me], eol)
	rng := rand.New(rand.NewPCG(seed, 1))
	p := ataxx.Start()
	for !p.Terminal() && p.Turns() < plies {
		legal := p.LegalMoves(nil)
		m := legal[rng.IntN(len(legal))]
		if p.ToMove() == me {
			fmt.Fprintf(&b, "TURN %d %d%s", 10000-p.Turns(), 10000-p.Turns(), eol)
		} else {
			r1, c1, r2, c2 := p.JudgeCoords(m)
			fmt.Fprintf(&b, "OPP %d %d %d %d %d%s", r1, c1, r2, c2, rng.IntN(100), eol)
		}
		// The agent's real move may differ from m: after its TURN the OPP lines may turn
		// illegal, which is exactly the kind of input the target must survive.
		p = p.Apply(m)
	}
	b.WriteString("FINISH" + eol)
	return b.String()
}

// isCommand reports whether field is name, ignoring the case of ASCII letters only.
func isCommand(field, name string) bool {
	if len(field) != len(name) {
		return false
	}
	for i := range len(field) {
		c := field[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != name[i] {
			return false
		}
	}
	return true
}

// expectedReplies lists what the agent must answer to input, in order ("OK" or "MOVE"),
// and whether that expectation is exact (false when a line is too long to call).
func expectedReplies(input []byte) ([]string, bool) {
	var want []string
	for _, line := range strings.Split(string(input), "\n") {
		if len(line) >= MaxLineLen {
			return nil, false
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch {
		case isCommand(f[0], "READY"):
			want = append(want, "OK")
		case isCommand(f[0], "TURN"):
			want = append(want, "MOVE")
		case isCommand(f[0], "FINISH"):
			return want, true
		}
	}
	return want, true
}

func FuzzJudgeProtocol(f *testing.F) {
	for _, s := range []string{
		"READY FIRST\nTURN 10000 10000\nOPP 1 7 2 7 3\nTURN 9990 9990\nFINISH\n",
		"READY SECOND\r\nOPP 1 1 2 2 5\r\nTURN 10000 9995\r\nFINISH\r\n",
		"READY FIRST\n\n   \nHELLO\nTURN   10000\t10000  \nOPP 4 4 4 5 1\nTURN 1 1\nOPP a b c d\nTURN -5 x\nFINISH\nTURN 1 1\n",
		"TURN 10000 10000\nTURN 10000 10000\nOPP -1 -1 -1 -1 0\nOPP 1 1 3 3 0\nTURN 0 0\n",
		"READY SECOND\nOPP 1 7 2 6 5\nTURN 100 100\nREADY FIRST\nTURN 100 100\n",
		"ready first\nturn 100 100\nfinish\n",
		"READY\nREADY THIRD\nTURN\nOPP\nFINISH now\n",
		"",
	} {
		f.Add([]byte(s))
	}
	for i, eol := range []string{"\n", "\r\n"} {
		f.Add([]byte(transcript(ataxx.O, eol, uint64(i), 12)))
		f.Add([]byte(transcript(ataxx.X, eol, uint64(i), 12)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		factory := greedyFactory(uint64(len(data)))
		if len(data)%2 == 1 {
			factory = randomFactory(uint64(len(data)))
		}
		var out bytes.Buffer
		s := newBW(bytes.NewReader(data), &out, io.Discard, factory)
		var moves []played
		s.Trace = func(before ataxx.Position, m ataxx.Move, c contract.Coords) {
			m = passIf(c, m)
			if !before.Valid() {
				t.Fatalf("tracked position invalid: %v", before)
			}
			moves = append(moves, played{Before: before, M: m})
		}
		if err := s.Run(); err != nil {
			t.Fatalf("session failed: %v", err)
		}
		for _, p := range moves {
			checkPlayed(t, p)
		}
		got := strings.Split(out.String(), "\n")
		if got[len(got)-1] != "" {
			t.Fatalf("output does not end with a newline: %q", out.String())
		}
		got = got[:len(got)-1]
		want, exact := expectedReplies(data)
		if exact && len(got) != len(want) {
			t.Fatalf("%d lines out, want %d (%v): %q", len(got), len(want), want, out.String())
		}
		nMoves := 0
		for i, line := range got {
			if line == "OK" {
				if exact && want[i] != "OK" {
					t.Fatalf("line %d: OK, want %s", i, want[i])
				}
				continue
			}
			if exact && want[i] != "MOVE" {
				t.Fatalf("line %d: %q, want %s", i, line, want[i])
			}
			r1, c1, r2, c2, err := parseMoveLine(line)
			if err != nil {
				t.Fatal(err)
			}
			if nMoves >= len(moves) {
				t.Fatalf("more MOVE lines than moves played")
			}
			p := moves[nMoves]
			nMoves++
			if p.M == ataxx.Pass {
				if r1 != -1 || c1 != -1 || r2 != -1 || c2 != -1 {
					t.Fatalf("pass written as %q", line)
				}
				continue
			}
			if m, err := p.Before.JudgeMove(r1, c1, r2, c2); err != nil || m != p.M {
				t.Fatalf("%q in\n%s: %v (played %v)", line, p.Before.Diagram(), err, p.M)
			}
		}
		if nMoves != len(moves) {
			t.Fatalf("%d MOVE lines, %d moves played", nMoves, len(moves))
		}
	})
}
