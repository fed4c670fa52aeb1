package uai

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"colony/engine"
	"colony/game/ataxx"
)

// handshakeWait bounds the external engine's answers that need no search (uaiok, readyok).
const handshakeWait = 10 * time.Second

// searchSlack is how long past its own limits an external engine may take to answer go
// before the client gives up on it (the referee's clock is the real judge of time).
const searchSlack = 5 * time.Second

// Client is an external engine that speaks UAI (a public Ataxx engine), played as a Colony
// engine: `agent -engine uai -uai-cmd 'PROGRAM ARGS'` puts it behind the judge's protocol, so
// that arena referees it exactly as it referees Colony's own agents. It is one process for
// the client's life, in the agent's process group (the referee's kill reaches it).
type Client struct {
	cmd    *exec.Cmd
	in     *bufio.Writer
	stdin  io.Closer
	lines  chan string // the engine's stdout, closed when it ends
	goArgs string
	id     string // its "id name"
}

// Dial starts command (split on whitespace and commas, no shell) and completes the UAI
// handshake. goArgs, when set, is sent after "go" for every move ("nodes 5000" or
// "nodes,5000": a fixed budget); otherwise each go carries the clocks (btime/wtime) or the
// limits the client is given. Commas stand for spaces in both, for referees that split an
// agent's command line on spaces (arena does).
func Dial(command, goArgs string, log io.Writer) (*Client, error) {
	argv := commaFields(command)
	if len(argv) == 0 {
		return nil, errors.New("uai: no engine command (-uai-cmd)")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = log
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("uai: starting %q: %w", command, err)
	}
	c := &Client{cmd: cmd, in: bufio.NewWriter(stdin), stdin: stdin, lines: make(chan string, 64),
		goArgs: strings.Join(commaFields(goArgs), " ")}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	fail := func(err error) (*Client, error) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("uai: %q: %w", command, err)
	}
	if err := c.send("uai"); err != nil {
		return fail(err)
	}
	if _, err := c.await("uaiok", handshakeWait); err != nil {
		return fail(err)
	}
	if err := c.ready(); err != nil {
		return fail(err)
	}
	return c, nil
}

// Name is the engine's -engine name.
func (c *Client) Name() string { return "uai" }

// ID is the external engine's "id name" ("" if it gave none).
func (c *Client) ID() string { return c.id }

// NewGame tells the engine that a new game starts and waits until it is ready.
func (c *Client) NewGame() {
	if err := c.send("uainewgame"); err != nil {
		panic(err)
	}
	if err := c.ready(); err != nil {
		panic(err)
	}
}

// BestMove sends the position as a FEN and the limits, and returns the engine's move. An
// engine that dies, stays silent or answers an illegal move makes it panic with the reason
// (the agent reports it on its log and plays its fallback, so the game record shows it).
func (c *Client) BestMove(pos ataxx.Position, lim engine.Limits) ataxx.Move {
	goLine := GoLine(pos.ToMove(), lim, c.goArgs)
	if err := c.send("position fen "+pos.FEN(), goLine); err != nil {
		panic(err)
	}
	wait := max(lim.MyTime, lim.MoveTime) + searchSlack
	if lim.MyTime == 0 && lim.MoveTime == 0 {
		wait = time.Minute // a node or depth budget: no clock to bound it
	}
	line, err := c.await("bestmove", wait)
	if err != nil {
		panic(fmt.Errorf("uai: %s: %w", goLine, err))
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		panic(fmt.Errorf("uai: %q without a move", line))
	}
	m, err := pos.ParseUAIMove(f[1])
	if err != nil {
		panic(fmt.Errorf("uai: bestmove %q in %s: %w", f[1], pos.FEN(), err))
	}
	return m
}

// GoLine is the go command for the side to move (O is FEN 'x', black: btime is O's clock):
// "go "+goArgs when goArgs is set; else the clocks, or the move time, node or depth budget.
func GoLine(toMove int, lim engine.Limits, goArgs string) string {
	if goArgs != "" {
		return "go " + goArgs
	}
	ms := func(d time.Duration) int64 { return max(d.Milliseconds(), 1) }
	switch {
	case lim.MyTime > 0:
		opp := lim.OppTime
		if opp <= 0 {
			opp = lim.MyTime // a clock of one side only: the other is taken to be the same
		}
		bt, wt, bi, wi := lim.MyTime, opp, lim.MyInc, lim.OppInc
		if toMove == ataxx.X {
			bt, wt, bi, wi = wt, bt, wi, bi
		}
		return fmt.Sprintf("go btime %d wtime %d binc %d winc %d", ms(bt), ms(wt), bi.Milliseconds(), wi.Milliseconds())
	case lim.MoveTime > 0:
		return fmt.Sprintf("go movetime %d", ms(lim.MoveTime))
	case lim.Nodes > 0:
		return fmt.Sprintf("go nodes %d", lim.Nodes)
	case lim.Depth > 0:
		return fmt.Sprintf("go depth %d", lim.Depth)
	}
	return fmt.Sprintf("go movetime %d", bareGoTime.Milliseconds())
}

// ready sends isready and waits for readyok.
func (c *Client) ready() error {
	if err := c.send("isready"); err != nil {
		return err
	}
	_, err := c.await("readyok", handshakeWait)
	return err
}

func (c *Client) send(lines ...string) error {
	return writeLines(c.in, "uai: writing to the engine", lines)
}

// commaFields splits s on whitespace and commas (commas stand for spaces: see Dial).
func commaFields(s string) []string { return strings.Fields(strings.ReplaceAll(s, ",", " ")) }

// await reads the engine's lines until one whose first word is word, which it returns; it
// notes "id name" on the way and fails when the engine ends or wait passes.
func (c *Client) await(word string, wait time.Duration) (string, error) {
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return "", fmt.Errorf("the engine ended before %q", word)
			}
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			if f[0] == "id" && len(f) > 2 && f[1] == "name" {
				c.id = strings.Join(f[2:], " ")
			}
			if f[0] == word {
				return line, nil
			}
		case <-t.C:
			return "", fmt.Errorf("no %q within %v", word, wait)
		}
	}
}

// Close asks the engine to quit and waits a moment for it; then it is killed.
func (c *Client) Close() error {
	_ = c.send("quit")
	_ = c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Second):
		_ = c.cmd.Process.Kill()
		return <-done
	}
}
