// Package judge is the ALPHANO judge protocol (docs/rules.md, "Judge protocol") of both
// ALPHANO games: the message format, shared by the agent and the referee (package arena) so
// that the two cannot drift, and the agent's side of a game for any game whose registration
// gives a judge notation (contract.Judge).
package judge

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"colony/contract"
)

// The protocol's words.
const (
	Ready    = "READY"
	OK       = "OK"
	Turn     = "TURN"
	Opp      = "OPP"
	Move     = "MOVE"
	Finish   = "FINISH"
	Position = "POSITION" // Colony's extension: the referee's set opening, never sent by the judge
)

// SeatNames are the READY arguments of the two seats.
var SeatNames = [2]string{"FIRST", "SECOND"}

// ReadyLine is the READY line for seat 0 (FIRST) or 1 (SECOND).
func ReadyLine(seat int) string { return Ready + " " + SeatNames[seat] }

// TurnLine is the TURN line with both clocks in milliseconds.
func TurnLine(my, opp time.Duration) string {
	return fmt.Sprintf("%s %d %d", Turn, my.Milliseconds(), opp.Milliseconds())
}

// OppLine is the OPP line: the opponent's move and the time it took.
func OppLine(c contract.Coords, took time.Duration) string {
	return fmt.Sprintf("%s %s %d", Opp, c, took.Milliseconds())
}

// MoveLine is the agent's answer to TURN.
func MoveLine(c contract.Coords) string { return Move + " " + c.String() }

// PositionLine is the arena's set-opening extension line.
func PositionLine(board string) string { return Position + " " + board }

// ParseMove reads "MOVE x1 y1 x2 y2" strictly as the referee does: five fields, the word in
// capitals, four integers.
func ParseMove(line string) (contract.Coords, error) {
	f := strings.Fields(line)
	if len(f) != 5 || f[0] != Move {
		return contract.Coords{}, fmt.Errorf("malformed line: want MOVE x1 y1 x2 y2")
	}
	var c contract.Coords
	for i := range c {
		v, err := strconv.Atoi(f[i+1])
		if err != nil {
			return contract.Coords{}, fmt.Errorf("malformed line: %q is not an integer", f[i+1])
		}
		c[i] = v
	}
	return c, nil
}

// MaxLineLen is the longest input line a protocol session reads; longer lines are reported
// and skipped whole.
const MaxLineLen = 4096

// LineReader splits input into lines, dropping over-long ones.
type LineReader struct {
	r   *bufio.Reader
	log io.Writer
}

// NewLineReader reads lines from r, reporting skipped ones on log.
func NewLineReader(r io.Reader, log io.Writer) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, MaxLineLen+1), log: log}
}

// Next returns the next line without its newline, or io.EOF when the input is exhausted
// (a last line without a newline is returned first). Other read errors are returned as is.
func (lr *LineReader) Next() (string, error) {
	for {
		b, err := lr.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			fmt.Fprintf(lr.log, "agent: skipping a line longer than %d bytes\n", MaxLineLen)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = lr.r.ReadSlice('\n')
			}
			if err != nil {
				return "", err
			}
			continue
		}
		if err != nil {
			if len(b) > 0 && errors.Is(err, io.EOF) {
				return string(b), nil
			}
			return "", err
		}
		return string(b[:len(b)-1]), nil
	}
}

// Each calls handle with every line of the input and its fields (none for a blank line) until
// handle says stop or returns an error, or the input ends (nil). what names the input in a
// read error.
func (lr *LineReader) Each(what string, handle func(line string, f []string) (stop bool, err error)) error {
	for {
		line, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("agent: reading %s: %w", what, err)
		}
		if stop, err := handle(line, strings.Fields(line)); stop || err != nil {
			return err
		}
	}
}

// ASCIIUpper upper-cases ASCII letters only, so that no exotic rune folds into a command.
func ASCIIUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
