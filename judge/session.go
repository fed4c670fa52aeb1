package judge

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"colony/contract"
	"colony/engine"
)

// Session plays games over the judge protocol for the agent. It tracks the position itself
// and keeps going, as the judge sees the game, whatever odd input it gets; problems are
// reported on its log.
type Session[P contract.Position[P, M], M contract.Move] struct {
	def *contract.Def[P, M]
	jn  *contract.Judge[P, M]
	in  *LineReader
	out *bufio.Writer
	log io.Writer
	mv  *Mover[P, M]
	pos P
	me  int // the agent's seat, -1 until known
	n   int // the agent's moves in this game

	// Trace, when set, sees every move the agent prints with the position it was chosen in.
	Trace func(before P, m M, c contract.Coords)

	// NodeClock (0: none) plays each game on a node clock of that many nodes: every move is
	// asked with the nodes left (engine.Limits.NodeClock) and costs the nodes its engine
	// reports, so that the same seeds give the same games on any machine load.
	NodeClock int64
	nodesLeft int64
}

// Serve speaks the judge protocol on r and w until FINISH or the end of the input, with the
// engine that factory builds (in the background: READY is answered at once) and fallback
// while it is not there. It returns nil for a clean end and an error only when w fails or r
// fails with something but EOF.
func Serve[P contract.Position[P, M], M contract.Move](def *contract.Def[P, M], r io.Reader, w, log io.Writer, factory func() (engine.Engine[P, M], error), fallback engine.Engine[P, M]) error {
	s, err := NewSession(def, r, w, log, factory, fallback)
	if err != nil {
		return err
	}
	return s.Run()
}

// NewSession returns a session for Serve; def must have a judge notation.
func NewSession[P contract.Position[P, M], M contract.Move](def *contract.Def[P, M], r io.Reader, w, log io.Writer, factory func() (engine.Engine[P, M], error), fallback engine.Engine[P, M]) (*Session[P, M], error) {
	if def.Judge == nil {
		return nil, fmt.Errorf("judge: %s is not played over the judge protocol", def.Info.Name)
	}
	return &Session[P, M]{
		def: def, jn: def.Judge,
		in:  NewLineReader(r, log),
		out: bufio.NewWriter(w),
		log: log,
		mv:  NewMover(factory, fallback, log),
		pos: def.Start(),
		me:  -1,
	}, nil
}

func (s *Session[P, M]) println(line string) error {
	s.out.WriteString(line)
	s.out.WriteByte('\n')
	if err := s.out.Flush(); err != nil {
		return fmt.Errorf("agent: writing %q: %w", line, err)
	}
	return nil
}

// Run reads and answers until FINISH or the end of the input.
func (s *Session[P, M]) Run() error {
	return s.in.Each("the judge", func(line string, f []string) (stop bool, err error) {
		if len(f) == 0 {
			fmt.Fprintln(s.log, "agent: skipping a blank line")
			return false, nil
		}
		switch ASCIIUpper(f[0]) {
		case Ready:
			err = s.ready(f)
		case Turn:
			err = s.turn(f)
		case Opp:
			s.opp(f)
		case Position:
			s.position(line)
		case Finish:
			if len(f) > 1 {
				fmt.Fprintf(s.log, "agent: extra words after FINISH: %q\n", line)
			}
			return true, nil
		default:
			fmt.Fprintf(s.log, "agent: skipping unknown line %q\n", line)
		}
		return false, err
	})
}

// ready starts a game. Any READY is answered OK (staying silent would lose on time).
func (s *Session[P, M]) ready(f []string) error {
	s.pos = s.def.Start()
	s.me, s.n = -1, 0
	if len(f) == 2 {
		for seat, name := range SeatNames {
			if ASCIIUpper(f[1]) == name {
				s.me = seat
			}
		}
	}
	if s.me < 0 {
		fmt.Fprintf(s.log, "agent: READY line %q names no side: inferring it from the next message\n", strings.Join(f, " "))
	}
	s.mv.StartGame()
	s.nodesLeft = s.NodeClock
	return s.println(OK)
}

// position handles the arena's extension line "POSITION <board>" (the game's board notation,
// sent after OK when the referee plays a set opening): the game goes on from there. The
// ALPHANO judge never sends it.
func (s *Session[P, M]) position(line string) {
	board := strings.TrimSpace(line[strings.Index(ASCIIUpper(line), Position)+len(Position):])
	p, err := s.def.ParseBoard(board)
	if err != nil {
		fmt.Fprintf(s.log, "agent: skipping POSITION line %q: %v\n", line, err)
		return
	}
	s.pos = p
}

// setToMove makes pl the player to move in the tracked position, keeping the pieces.
func (s *Session[P, M]) setToMove(pl int, why string) {
	if s.pos.ToMove() == pl || s.jn.WithToMove == nil {
		return
	}
	fmt.Fprintf(s.log, "agent: %s but the tracked position %s has another player to move: switching\n", why, s.pos)
	s.pos = s.jn.WithToMove(s.pos, pl)
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
func (s *Session[P, M]) turn(f []string) error {
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
	before := s.pos
	if s.jn.Playable != nil {
		before = s.jn.Playable(before)
	}
	if before.Terminal() {
		// Nothing is legal in a finished game: say pass, the judge decides.
		if s.Trace != nil {
			var none M
			s.Trace(before, none, contract.PassCoords)
		}
		return s.println(MoveLine(contract.PassCoords))
	}
	if s.NodeClock > 0 {
		lim.NodeClock = max(s.nodesLeft, 1)
	}
	m := s.mv.Choose(before, lim)
	if r, ok := s.mv.Report(); ok && s.NodeClock > 0 {
		s.nodesLeft -= r.Nodes
	}
	c := s.jn.Coords(before, m)
	if s.Trace != nil {
		s.Trace(before, m, c)
	}
	s.pos = before.Apply(m)
	s.n++
	if r, ok := s.mv.Report(); ok {
		// On the log, before the move: the referee reads it into its record; the judge
		// reads stdout only.
		fmt.Fprintln(s.log, InfoOf(s.n, r))
	}
	return s.println(MoveLine(c))
}

// opp applies the opponent's move: legally if it is legal, else by force, else by passing
// the turn, so that the tracked position stays as close to the judge's as can be.
func (s *Session[P, M]) opp(f []string) {
	if s.me < 0 {
		s.me = (s.pos.ToMove() + 1) % s.pos.NumPlayers()
	}
	if s.pos.NumPlayers() == 2 {
		s.setToMove(1-s.me, "got the opponent's move")
	}
	var c contract.Coords
	var err error
	if len(f) < 5 {
		err = fmt.Errorf("want 4 coordinates")
	}
	for i := 0; err == nil && i < 4; i++ {
		c[i], err = strconv.Atoi(f[i+1])
	}
	if err != nil {
		fmt.Fprintf(s.log, "agent: cannot read OPP line %q (%v): keeping the position, passing the turn\n", strings.Join(f, " "), err)
		s.pass()
		return
	}
	if len(f) != 6 {
		fmt.Fprintf(s.log, "agent: OPP line %q: want 4 coordinates and a time\n", strings.Join(f, " "))
	} else if _, err := strconv.Atoi(f[5]); err != nil {
		fmt.Fprintf(s.log, "agent: OPP line %q: bad time %q\n", strings.Join(f, " "), f[5])
	}
	m, err := s.jn.Move(s.pos, c)
	if err == nil {
		s.pos = s.pos.Apply(m)
		return
	}
	if s.jn.Force != nil {
		if forced, ok := s.jn.Force(s.pos, c); ok {
			fmt.Fprintf(s.log, "agent: illegal OPP move %v in %s (%v): applying it by force\n", c, s.pos, err)
			s.pos = forced
			return
		}
	}
	fmt.Fprintf(s.log, "agent: illegal OPP move %v in %s (%v): keeping the position, passing the turn\n", c, s.pos, err)
	s.pass()
}

// pass gives the turn to the next player without touching the pieces.
func (s *Session[P, M]) pass() {
	if s.jn.Pass != nil {
		s.pos = s.jn.Pass(s.pos)
	}
}
