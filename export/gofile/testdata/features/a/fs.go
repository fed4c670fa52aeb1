package a

import (
	"embed"
	"io/fs"
	"sort"
)

// Files holds data/sub: data files and a README the exporter leaves out.
//
//go:embed data/sub
var Files embed.FS

// List names the embedded files under data/sub.
func List() []string {
	var out []string
	fs.WalkDir(Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}
