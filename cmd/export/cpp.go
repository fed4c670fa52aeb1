package main

import (
	"fmt"
	"io"
	"time"

	"colony/export/cpp"
)

// cppArgs are the flags that -lang cpp reads.
type cppArgs struct {
	game, engine, model, out string
	check                    bool
}

// runCPP writes the C++ program (cpp.Generate) and, with -check, builds and starts it
// as a judge would.
func runCPP(a cppArgs, stdout, stderr io.Writer) int {
	if a.out == "Main.go" {
		a.out = "Main.cpp"
	}
	src, info, err := cpp.Generate(cpp.Options{Game: a.game, Engine: a.engine, Model: a.model})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := emit(a.out, src, stdout); err != nil {
		fmt.Fprintln(stderr, "export:", err)
		return 1
	}
	fmt.Fprintf(stderr, "export: wrote %s: %d bytes, C++17, %s %s, net %s\n", a.out, info.Size, a.game, info.Engine, info.Net)
	if !a.check {
		return 0
	}
	built, ready, err := checkBuild(src, cpp.Build)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stderr, "export: check: %d bytes; g++ -std=c++17 -O2 Main.cpp took %v; READY answered OK %v after start\n",
		info.Size, built.Round(time.Millisecond), ready.Round(time.Millisecond))
	return 0
}
