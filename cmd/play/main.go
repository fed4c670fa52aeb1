// Command play writes Colony's play page (colony/web/page) and can serve it:
//
//	play -wasm bin/colony.wasm -wasm-exec $(go env GOROOT)/lib/wasm/wasm_exec.js -o bin/web
//	play -serve 127.0.0.1:8080 -o bin/web     # serves the folder (the page also opens as a file)
//
// make web does the first (docs/viewer.md, "The play page").
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"

	"colony/web/page"
)

func main() {
	fs := flag.NewFlagSet("play", flag.ExitOnError)
	out := fs.String("o", "bin/web", "the page's folder")
	wasm := fs.String("wasm", "", "the engine built with GOOS=js GOARCH=wasm from ./web/wasm (writes the page)")
	exec := fs.String("wasm-exec", "", "wasm_exec.js of the Go that built it ($(go env GOROOT)/lib/wasm/wasm_exec.js)")
	serve := fs.String("serve", "", "serve the page's folder at this address (e.g. 127.0.0.1:8080)")
	fs.Parse(os.Args[1:])
	if *wasm == "" && *serve == "" || *wasm != "" && *exec == "" || fs.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "play: give -wasm FILE -wasm-exec FILE to write the page, -serve ADDR to serve it")
		os.Exit(2)
	}
	if *wasm != "" {
		files, size, err := page.Write(*out, *wasm, *exec)
		if err != nil {
			fmt.Fprintln(os.Stderr, "play:", err)
			os.Exit(1)
		}
		fmt.Printf("play: %s/index.html: %d files, %.1f MB\n", *out, len(files), float64(size)/(1<<20))
	}
	if *serve != "" {
		fmt.Printf("play: serving %s at http://%s/\n", *out, *serve)
		if err := http.ListenAndServe(*serve, page.Handler(*out)); err != nil {
			fmt.Fprintln(os.Stderr, "play:", err)
			os.Exit(1)
		}
	}
}
