package cpp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Build copies src as Main.cpp alone into the empty directory dir and builds it there as the
// judge does, `g++ -std=c++17 -O2 Main.cpp`; it returns the binary's path (dir/a.out).
func Build(src []byte, dir string) (string, error) {
	if entries, err := os.ReadDir(dir); err != nil {
		return "", err
	} else if len(entries) > 0 {
		return "", fmt.Errorf("export: %s is not empty: the C++ file is built alone", dir)
	}
	if err := os.WriteFile(filepath.Join(dir, "Main.cpp"), src, 0o644); err != nil {
		return "", err
	}
	cmd := exec.Command("g++", "-std=c++17", "-O2", "Main.cpp")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("export: g++ -std=c++17 -O2 Main.cpp: %v\n%s", err, out)
	}
	return filepath.Join(dir, "a.out"), nil
}
