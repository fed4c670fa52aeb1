// Command view turns arena game records into one self-contained HTML page (no network):
// a replay of one game, or the run view of an arena run folder (standings, filters, every
// game's replay).
//
//	view [-o page.html] [-game slime] RECORD.json | RUN-FOLDER ...
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"colony/replay"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("view", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the HTML file to write (default: index.html in a run folder, RECORD.html for one record)")
	game := fs.String("game", "", "the game of King-of-the-Hill records written before records named their game")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: view [-o page.html] [-game NAME] RECORD.json | RUN-FOLDER ...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	page, err := replay.Build(fs.Args(), *game)
	if err != nil {
		fmt.Fprintln(stderr, "view:", err)
		return 1
	}
	if *out == "" {
		*out = replay.DefaultOutput(fs.Args())
	}
	if err := page.WriteFile(*out); err != nil {
		fmt.Fprintln(stderr, "view:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d games\n", *out, len(page.Games))
	return 0
}
