// Command mousesolve proves Catch The Mouse results with game/mouse/solve: one position, a
// file of positions, or a survey of played games (package game/mouse/mousesolve, reached
// through the registry; `mousesolve -h` lists the flags).
//
//	mousesolve [-board 'rows side'] [-depth D] [-time T] [-nodes N] [-hash MB] [-each]
//	mousesolve -file testdata.txt [-depth D] [-time T]
//	mousesolve -survey G [-players random|alphabeta] [-player-nodes N] [-time T]
package main

import (
	"fmt"
	"os"

	"colony/registry"
)

func main() {
	tool, ok := registry.Tool("mousesolve")
	if !ok {
		fmt.Fprintln(os.Stderr, "mousesolve: not registered")
		os.Exit(2)
	}
	os.Exit(tool(os.Args[1:], os.Stdout, os.Stderr))
}
