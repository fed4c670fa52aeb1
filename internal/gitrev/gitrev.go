// Package gitrev names the commit a program runs from, for the provenance that shards and
// pipeline runs record.
package gitrev

import (
	"os/exec"
	"strings"
)

// Short is the short hash of HEAD in the current directory, or "" when git cannot say.
func Short() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
