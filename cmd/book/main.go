// Command book computes an opening book offline: every position near the standard start
// where a seat is to move (that seat following the book, the other side playing anything),
// searched by an engine of the game, written in the book file format (contract.Book).
//
//	book -game bacteria-war -engine alphabeta -depth 10 -plies 4 -o models/bacteria-war/book.txt
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"colony/agentdef"
	"colony/contract"
	"colony/engine"
	"colony/internal/atomicfile"
	"colony/registry"
)

// bookGame is what the book needs of a game (registry.Lookup gives one).
type bookGame interface {
	Info() contract.Info
	Defaults() agentdef.EngineOptions
	BuildBook(engineName string, o agentdef.EngineOptions, lim engine.Limits, plies int, progress func(done int, pos, move string)) (*contract.Book, error)
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("book", flag.ContinueOnError)
	game := fs.String("game", "bacteria-war", "game: "+strings.Join(registry.Names(), ", "))
	eng := fs.String("engine", "alphabeta", "engine that searches each position")
	depth := fs.Int("depth", 0, "search depth of every position (0: -movetime decides)")
	movetime := fs.Duration("movetime", 0, "search time of every position (with -depth 0)")
	plies := fs.Int("plies", 2, "book positions lie within this many plies of the start")
	hash := fs.Int("hash", 0, "alphabeta: transposition table in MB")
	out := fs.String("o", "", "output file (written through a temporary file and a rename)")
	if err := fs.Parse(args); err != nil {
		return map[bool]int{true: 0, false: 2}[err == flag.ErrHelp]
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "book: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() > 0 || *out == "" || *plies < 1 || (*depth <= 0) == (*movetime <= 0) {
		return fail("usage: book -game G -engine E (-depth D | -movetime T) -plies N -o FILE")
	}
	var g bookGame
	g, err := registry.Lookup(*game)
	if err != nil {
		return fail("%v", err)
	}
	o := g.Defaults()
	o.HashMB = *hash
	start := time.Now()
	b, err := g.BuildBook(*eng, o, engine.Limits{Depth: *depth, MoveTime: *movetime}, *plies, func(done int, pos, move string) {
		fmt.Fprintf(os.Stderr, "%4d  %-60s %s  (%v)\n", done, pos, move, time.Since(start).Round(time.Second))
	})
	if err != nil {
		return fail("%v", err)
	}
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		return fail("%v", err)
	}
	if _, err := contract.ReadBook(buf.Bytes(), g.Info()); err != nil {
		return fail("the book does not read back: %v", err)
	}
	if err := atomicfile.WriteFile(*out, buf.Bytes()); err != nil {
		return fail("%v", err)
	}
	fmt.Printf("book: %d positions of %s within %d plies (%s, depth %d, movetime %v) in %v: %s\n",
		len(b.Moves), *game, *plies, *eng, *depth, *movetime, time.Since(start).Round(time.Second), *out)
	return 0
}
