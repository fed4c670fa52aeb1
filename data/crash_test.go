package data

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const crashDirEnv = "COLONY_DATA_CRASH_DIR"

// crashPool is the example pool both the writer child and the checking parent derive shard
// contents from: shard s holds crashExamples(pool, s).
func crashPool() []Example { return genAtaxx(77, 3000) }

func crashExamples(pool []Example, s int) []Example {
	n := 1000 + s%7*250
	out := make([]Example, n)
	for i := range out {
		out[i] = pool[(s*131+i)%len(pool)]
	}
	return out
}

// TestCrashWriterChild is the child process of TestCrashLeavesOnlyWholeShards: it writes
// shards into $COLONY_DATA_CRASH_DIR until killed (or 60 s pass, so it can never linger).
func TestCrashWriterChild(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("helper process for TestCrashLeavesOnlyWholeShards")
	}
	pool := crashPool()
	testHookMidWrite = func() { time.Sleep(3 * time.Millisecond) }
	deadline := time.Now().Add(60 * time.Second)
	for s := 0; time.Now().Before(deadline); s++ {
		meta := testMeta()
		meta.Seed = uint64(s)
		if err := WriteShard(filepath.Join(dir, fmt.Sprintf("crash-%06d%s", s, ShardExt)), meta, crashExamples(pool, s)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
	}
	os.Exit(4)
}

// TestCrashLeavesOnlyWholeShards kills a shard-writing child process with SIGKILL at random
// moments and checks that every shard file left behind reads back whole and exactly as
// written, and that the temporary files of interrupted writes are ignored. (SIGKILL keeps the
// page cache, so this tests the temp-file-and-rename protocol, not power loss.)
func TestCrashLeavesOnlyWholeShards(t *testing.T) {
	kills := 8
	if testing.Short() {
		kills = 3
	}
	pool := crashPool()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	totalShards, totalTemps := 0, 0
	for it := range kills {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashWriterChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashDirEnv+"="+dir)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Let it finish at least one shard (plus a random number more), then kill it.
		deadline := time.Now().Add(30 * time.Second)
		target := 1 + rng.IntN(4)
		for {
			list, _ := ListShards(dir, nil)
			if len(list) >= target {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("child wrote no shard in 30 s: %s", stderr.String())
			}
			time.Sleep(time.Millisecond)
		}
		time.Sleep(time.Duration(rng.IntN(20_000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("child did not die by SIGKILL: %v; stderr: %s", err, stderr.String())
		}

		temps := 0
		list, err := ListShards(dir, &temps)
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range list {
			meta, exs, err := ReadShard(sh.Path)
			if err != nil {
				t.Fatalf("kill %d: shard %s is damaged: %v", it, sh.Name, err)
			}
			s, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(sh.Name, "crash-"), ShardExt))
			if err != nil || uint64(s) != meta.Seed {
				t.Fatalf("kill %d: shard %s has seed %d", it, sh.Name, meta.Seed)
			}
			want := crashExamples(pool, s)
			if len(exs) != len(want) {
				t.Fatalf("kill %d: shard %s has %d examples, want %d", it, sh.Name, len(exs), len(want))
			}
			for i := range want {
				if !sameExample(t, sh.Name, want[i], exs[i]) {
					t.FailNow()
				}
			}
		}
		_, rep, err := LoadDir(dir, "bacteria-war", 1, os.Stderr)
		if err != nil || rep.Corrupt != 0 || rep.Loaded != len(list) || rep.TempFiles != temps {
			t.Fatalf("kill %d: LoadDir %+v, %v", it, rep, err)
		}
		totalShards += len(list)
		totalTemps += temps
	}
	t.Logf("%d kills: %d whole shards verified, %d interrupted temp files ignored", kills, totalShards, totalTemps)
}
