// Command app prints what the exporter's test compares between the original and the export.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"example.com/feat/a"
	"example.com/feat/b"
	xa "example.com/feat/x/a"
)

func main() {
	game := flag.String("game", "", "game")
	engine := flag.String("engine", "", "engine")
	level := flag.Int("level", 0, "level")
	flag.Parse()
	t := &b.Thing{Base: a.Base{ID: 7}, Label: "t"}
	l := b.Local{Thing: t, N: 1}
	l.Base.ID++
	lines := []string{
		fmt.Sprintf("flags %s %s %d %v", *game, *engine, *level, flag.Args()),
		fmt.Sprintf("names %s %s %s", a.Name, b.Name, xa.Name),
		fmt.Sprintf("sum %d order %v", b.Sum, b.Order()),
		fmt.Sprintf("set %d apply %v max %d builtin %d", a.NewSet(1, 2, 2, 3).Len(), a.Apply([]int{1, 2}, func(i int) string { return fmt.Sprint(i * 2) }), a.Max(1, 2), max(1, 2)),
		fmt.Sprintf("upper %s rand %d %d", a.Upper("  hi "), a.Roll(1), b.Pick(1)),
		fmt.Sprintf("embed %q %v %v", a.Greeting, a.Bytes, a.List()),
		fmt.Sprintf("thing %s %d %s", l.Describe(), l.Thing.Base.ID, t.Label),
	}
	fmt.Println(strings.Join(lines, "\n"))
	os.Exit(0)
}
