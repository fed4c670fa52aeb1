// Command agent plays Colony's games as a contestant: the judge protocol on stdin/stdout for
// the ALPHANO games (and UAI for Bacteria War, for public Ataxx tools). It also counts perft.
//
//	agent -game bacteria-war [-engine NAME] [-protocol judge|uai] [-seed S] [-model FILE]
//	agent -game bacteria-war -perft D [-board 'rows side']
//	agent -game bacteria-war -engines
//
// Everything is in package agent; see `agent -h`.
package main

import (
	"os"

	"colony/agent"
)

func main() {
	os.Exit(agent.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
