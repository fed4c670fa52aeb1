package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"colony/engine"
	"colony/game/ataxx"
)

// judgeSession plays one Bacteria War game over the judge protocol (RULES.md, "Judge
// protocol"). It tracks the position itself and keeps going, as the judge sees the game,
// whatever odd input it gets; problems are reported on log.
type judgeSession struct {
	in  *lineReader
	out *bufio.Writer
	log io.Writer
	mv  *mover
	pos ataxx.Position
	me  int // the agent's side, -1 until known

	// trace, when set, sees every move the agent prints with the position it was chosen in.
	trace func(before ataxx.Position, m ataxx.Move)
}

// RunJudge speaks the judge protocol on r and w until FINISH or the end of the input, with
// the engine that factory builds (in the background: READY is answered at once). It returns
// nil for a clean end and an error only when w fails or r fails with something but EOF.
func RunJudge(r io.Reader, w, log io.Writer, factory func() (AtaxxEngine, error), seed uint64) error {
	return newJudgeSession(r, w, log, factory, seed).run()
}

func newJudgeSession(r io.Reader, w, log io.Writer, factory func() (AtaxxEngine, error), seed uint64) *judgeSession {
	return &judgeSession{
		in:  newLineReader(r, log),
		out: bufio.NewWriter(w),
		log: log,
		mv:  newMover(factory, seed, log),
		pos: ataxx.Start(),
		me:  -1,
	}
}

func (s *judgeSession) println(line string) error {
	s.out.WriteString(line)
	s.out.WriteByte('\n')
	if err := s.out.Flush(); err != nil {
		return fmt.Errorf("agent: writing %q: %w", line, err)
	}
	return nil
}

func (s *judgeSession) run() error {
	for {
		line, err := s.in.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("agent: reading the judge: %w", err)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			fmt.Fprintln(s.log, "agent: skipping a blank line")
			continue
		}
		switch asciiUpper(f[0]) {
		case "READY":
			err = s.ready(f)
		case "TURN":
			err = s.turn(f)
		case "OPP":
			s.opp(f)
		case "POSITION":
			s.position(line)
		case "FINISH":
			if len(f) > 1 {
				fmt.Fprintf(s.log, "agent: extra words after FINISH: %q\n", line)
			}
			return nil
		default:
			fmt.Fprintf(s.log, "agent: skipping unknown line %q\n", line)
		}
		if err != nil {
			return err
		}
	}
}

// ready starts a game. Any READY is answered OK (staying silent would lose on time).
func (s *judgeSession) ready(f []string) error {
	s.pos = ataxx.Start()
	s.me = -1
	if len(f) == 2 {
		switch asciiUpper(f[1]) {
		case "FIRST":
			s.me = ataxx.O
		case "SECOND":
			s.me = ataxx.X
		}
	}
	if s.me < 0 {
		fmt.Fprintf(s.log, "agent: READY line %q names no side: inferring it from the next message\n", strings.Join(f, " "))
	}
	s.mv.startGame()
	return s.println("OK")
}

// position handles the arena's extension line "POSITION <board>" (board in ataxx.ParseBoard
// notation, sent after OK when the referee plays a set opening): the game goes on from there.
// The ALPHANO judge never sends it.
func (s *judgeSession) position(line string) {
	board := strings.TrimSpace(line[strings.Index(strings.ToUpper(line), "POSITION")+len("POSITION"):])
	p, err := ataxx.ParseBoard(board)
	if err != nil || !p.Valid() {
		fmt.Fprintf(s.log, "agent: skipping POSITION line %q: %v\n", line, err)
		return
	}
	s.pos = p
}

// setToMove makes pl the side to move in the tracked position, keeping the pieces.
func (s *judgeSession) setToMove(pl int, why string) {
	if s.pos.ToMove() == pl {
		return
	}
	fmt.Fprintf(s.log, "agent: %s but the tracked position %s has the other side to move: switching sides\n", why, s.pos)
	s.pos = ataxx.NewPosition(s.pos.Pieces(ataxx.O), s.pos.Pieces(ataxx.X), pl, s.pos.Turns())
}

// parseMillis reads a clock field; ok is false for a missing or malformed one.
func parseMillis(f []string, i int) (time.Duration, bool) {
	if i >= len(f) {
		return 0, false
	}
	n, err := strconv.ParseInt(f[i], 10, 64)
	if err != nil {
		return 0, false
	}
	const maxMillis = int64(24 * time.Hour / time.Millisecond)
	return time.Duration(max(0, min(n, maxMillis))) * time.Millisecond, true
}

// turn answers a move. Even a malformed TURN gets one: silence loses on time.
func (s *judgeSession) turn(f []string) error {
	my, ok1 := parseMillis(f, 1)
	opp, ok2 := parseMillis(f, 2)
	if !ok1 || !ok2 || len(f) != 3 {
		fmt.Fprintf(s.log, "agent: malformed TURN line %q: answering with a 1 s budget\n", strings.Join(f, " "))
		if !ok1 {
			my = time.Second
		}
	}
	// A zero clock would read as "no limit": in time trouble, move at once instead.
	lim := engine.Limits{MyTime: max(my, time.Millisecond), OppTime: opp}
	if s.me < 0 {
		s.me = s.pos.ToMove()
	}
	s.setToMove(s.me, "asked to move")
	before, m := s.mv.choose(s.pos, lim)
	r1, c1, r2, c2 := before.JudgeCoords(m)
	if s.trace != nil {
		s.trace(before, m)
	}
	s.pos = before.Apply(m)
	return s.println(fmt.Sprintf("MOVE %d %d %d %d", r1, c1, r2, c2))
}

// opp applies the opponent's move: legally if it is legal, else by force, else by passing
// the turn, so that the tracked position stays as close to the judge's as can be.
func (s *judgeSession) opp(f []string) {
	if s.me < 0 {
		s.me = s.pos.ToMove() ^ 1
	}
	s.setToMove(s.me^1, "got the opponent's move")
	var c [4]int
	var err error
	if len(f) < 5 {
		err = fmt.Errorf("want 4 coordinates")
	}
	for i := 0; err == nil && i < 4; i++ {
		c[i], err = strconv.Atoi(f[i+1])
	}
	if err != nil {
		fmt.Fprintf(s.log, "agent: cannot read OPP line %q (%v): keeping the position, passing the turn\n", strings.Join(f, " "), err)
		s.pos = forcePass(s.pos)
		return
	}
	if len(f) != 6 {
		fmt.Fprintf(s.log, "agent: OPP line %q: want 4 coordinates and a time\n", strings.Join(f, " "))
	} else if _, err := strconv.Atoi(f[5]); err != nil {
		fmt.Fprintf(s.log, "agent: OPP line %q: bad time %q\n", strings.Join(f, " "), f[5])
	}
	m, err := s.pos.JudgeMove(c[0], c[1], c[2], c[3])
	if err == nil {
		s.pos = s.pos.Apply(m)
		return
	}
	forced, ok := forceMove(s.pos, c[0], c[1], c[2], c[3])
	if ok {
		fmt.Fprintf(s.log, "agent: illegal OPP move %v in %s (%v): applying it by force\n", c, s.pos, err)
		s.pos = forced
		return
	}
	fmt.Fprintf(s.log, "agent: illegal OPP move %v in %s (%v): keeping the position, passing the turn\n", c, s.pos, err)
	s.pos = forcePass(s.pos)
}

// forcePass gives the turn to the other side without touching the pieces.
func forcePass(p ataxx.Position) ataxx.Position {
	return ataxx.NewPosition(p.Pieces(ataxx.O), p.Pieces(ataxx.X), p.ToMove()^1, min(p.Turns()+1, ataxx.MaxTurns))
}

// forceMove plays (r1,c1)->(r2,c2) for the side to move whatever the rules say: its piece
// lands on the destination, a leap empties the source, the destination's neighbours are
// infected. It fails when the coordinates are off the board or not at distance 1 or 2.
func forceMove(p ataxx.Position, r1, c1, r2, c2 int) (ataxx.Position, bool) {
	for _, v := range [4]int{r1, c1, r2, c2} {
		if v < 1 || v > ataxx.Size {
			return p, false
		}
	}
	d := max(absInt(r1-r2), absInt(c1-c2))
	if d != 1 && d != 2 {
		return p, false
	}
	from := uint64(1) << ((r1-1)*ataxx.Size + c1 - 1)
	toSq := (r2-1)*ataxx.Size + c2 - 1
	to := uint64(1) << toSq
	me := p.ToMove()
	own, other := p.Pieces(me), p.Pieces(me^1)
	if d == 2 {
		own &^= from
		other &^= from
	}
	own |= to
	other &^= to
	flips := ataxx.Neighbours(toSq) & other
	own |= flips
	other &^= flips
	o, x := own, other
	if me == ataxx.X {
		o, x = other, own
	}
	return ataxx.NewPosition(o, x, me^1, min(p.Turns()+1, ataxx.MaxTurns)), true
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
