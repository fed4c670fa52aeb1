package kube

// The tests against a real S3 server: versitygw (github.com/versity/versitygw) serving a
// temporary directory on 127.0.0.1. They run when COLONY_VERSITYGW names its binary (make
// test-s3 installs it and sets it) and are skipped otherwise.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"colony/data"
	"colony/ingest"
	"colony/models"
	"colony/nn"
	"colony/pipeline"
	"colony/registry"
	"colony/store"

	"colony/cluster"
)

// gateway is a versitygw process serving dir on addr.
type gateway struct {
	bin, dir, addr string
	cmd            *exec.Cmd
	log            bytes.Buffer
}

func (g *gateway) start(t *testing.T) {
	t.Helper()
	g.cmd = exec.Command(g.bin, "--port", g.addr, "posix", g.dir)
	g.cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY=colonytest", "ROOT_SECRET_KEY=colonytestsecret")
	g.cmd.Stdout, g.cmd.Stderr = &g.log, &g.log
	if err := g.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, err := net.DialTimeout("tcp", g.addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("versitygw does not answer on %s: %v\n%s", g.addr, err, g.log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (g *gateway) stop() {
	if g.cmd != nil && g.cmd.Process != nil {
		g.cmd.Process.Kill()
		g.cmd.Wait()
		g.cmd = nil
	}
}

// s3Env starts versitygw on a free loopback port, points the environment at it and builds
// the binaries the pods run; it returns the gateway and the binaries' directory.
func s3Env(t *testing.T) (*gateway, string) {
	bin := os.Getenv("COLONY_VERSITYGW")
	if bin == "" {
		t.Skip("COLONY_VERSITYGW is not set (make test-s3 installs versitygw and runs these tests)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	g := &gateway{bin: bin, dir: t.TempDir(), addr: addr}
	g.start(t)
	t.Cleanup(g.stop)
	t.Setenv(store.EnvAccessKey, "colonytest")
	t.Setenv(store.EnvSecretKey, "colonytestsecret")
	t.Setenv(store.EnvEndpoint, "http://"+addr)
	t.Setenv(store.EnvEndpointS3, "")
	buildOnce.Do(func() {
		t0 := time.Now()
		binDir, buildErr = os.MkdirTemp("", "colony-s3-bin-")
		if buildErr == nil {
			var out []byte
			out, buildErr = exec.Command("go", "build", "-o", binDir+"/", "colony/cmd/selfplay", "colony/cmd/cluster").CombinedOutput()
			if buildErr != nil {
				buildErr = fmt.Errorf("go build: %w\n%s", buildErr, out)
			}
		}
		t.Logf("binaries built in %s", time.Since(t0).Round(time.Millisecond))
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	t.Logf("versitygw on %s", addr)
	return g, binDir
}

// The pods' binaries, built once for the tests of this package.
var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// syncBuf is a buffer that pods write into at once.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// tinyConfig is a configuration small enough for a test.
func tinyConfig(run, endpoint string) Config {
	c := DefaultConfig()
	c.Store, c.Endpoint = run, endpoint
	c.Workers, c.WorkerGames, c.Playouts, c.PerShard = 2, 2, 8, 30
	c.Init, c.TrainSteps, c.GateGames, c.GatePlayouts, c.Promote, c.MinShards = "random:1x8", 20, 2, 4, "0", 2
	return c
}

func localRun(t *testing.T, c Config, bins string, out *syncBuf) *Local {
	t.Helper()
	dir := t.TempDir()
	if _, err := c.Write(dir); err != nil {
		t.Fatal(err)
	}
	d, err := Decode(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &Local{Manifests: d, Bin: bins, Work: t.TempDir(), Stdout: out}
}

// openStore opens the store at url, its bucket made when it has none.
func openStore(t *testing.T, url string) store.Store {
	t.Helper()
	s, err := store.Open(url)
	if err == nil {
		err = store.EnsureBucket(context.Background(), s)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestS3EndToEnd: the manifests' two Jobs run locally against versitygw: two self-play pods
// and the trainer make and gate one generation through the store, and the promoted net is
// read back from it.
func TestS3EndToEnd(t *testing.T) {
	gw, bins := s3Env(t)
	ctx := context.Background()
	var out syncBuf
	c := tinyConfig("s3://colony/e2e", "http://"+gw.addr)
	run, st := oneGeneration(t, c, bins, &out)
	if st.Generation != 2 || len(st.History) != 1 || !st.History[0].Promoted || st.Shards < 2 || st.Rejected != 0 {
		t.Fatalf("state after one generation: %+v\n%s", st, out.String())
	}
	if _, err := run.Get(ctx, "gates/gen-0001.json"); err != nil {
		t.Fatal(err)
	}
	p := getFile(t, run, "best.model")
	g, _ := registry.Lookup(c.Game)
	m, _, err := models.Load(g.Info(), p)
	if err != nil || m.SHA256() != st.BestSHA || st.BestSHA != st.History[0].CandidateSHA256 {
		t.Fatalf("promoted net from the store: %v (sha %.12s, state %.12s)", err, m.SHA256(), st.BestSHA)
	}
	for _, idx := range []int{0, 1} {
		if !strings.Contains(out.String(), fmt.Sprintf("worker %d: ", idx)) {
			t.Errorf("no line from worker %d", idx)
		}
	}
}

// oneGeneration runs the Jobs of c's manifests locally for one generation, and returns the
// run's store and its state.json after it.
func oneGeneration(t *testing.T, c Config, bins string, out *syncBuf) (store.Store, pipeline.StoreState) {
	t.Helper()
	l := localRun(t, c, bins, out)
	t0 := time.Now()
	if err := l.RunGeneration(context.Background()); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Logf("one generation through the store in %s", time.Since(t0).Round(time.Millisecond))
	run := openStore(t, c.Store)
	var st pipeline.StoreState
	if b, err := run.Get(context.Background(), "state.json"); err != nil || json.Unmarshal(b, &st) != nil {
		t.Fatalf("state.json: %v", err)
	}
	return run, st
}

var workerLine = regexp.MustCompile(`worker (\d+): (\d+) games, (\d+) positions, (\d+) shards uploaded \((\d+) failed upload passes\)`)

// shardCounts decodes every shard of the store: examples in all, and the shards holding
// each game (a game in two shards would be counted twice).
func shardCounts(t *testing.T, s store.Store) (shards, examples int, gameShards map[uint64]int) {
	t.Helper()
	ctx := context.Background()
	objs, err := s.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	gameShards = map[uint64]int{}
	for _, o := range objs {
		if !strings.HasSuffix(o.Key, ingest.ShardExt) {
			continue
		}
		b, err := s.Get(ctx, o.Key)
		if err != nil {
			t.Fatal(err)
		}
		meta, exs, err := data.DecodeShard(b, data.Expect{})
		if err != nil {
			t.Fatalf("the store holds a broken shard %s: %v", o.Key, err)
		}
		shards++
		examples += len(exs)
		for _, g := range meta.Moves {
			gameShards[g.GameID]++
		}
	}
	return shards, examples, gameShards
}

// TestS3WorkerKillAndOutage: a worker killed with SIGKILL mid-run leaves no partial shard in
// the store and, restarted with the same index, goes on past its shards without playing a
// game twice; then the store goes away for 30 s while two workers play: they keep playing,
// upload afterwards, and every position they report is in the store.
func TestS3WorkerKillAndOutage(t *testing.T) {
	gw, bins := s3Env(t)
	ctx := context.Background()
	c := tinyConfig("s3://colony/chaos", "http://"+gw.addr)
	c.WorkerGames = 8
	run := openStore(t, c.Store)
	g, _ := registry.Lookup(c.Game)
	net := nn.NewRandom(nn.ArchFor(g.Info(), 1, 8), 1)
	p := filepath.Join(t.TempDir(), "best.model")
	if err := net.Save(p); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if err := run.Put(ctx, "best.model", b); err != nil {
		t.Fatal(err)
	}
	shards := openStore(t, c.Store+"/shards")
	var out syncBuf
	l := localRun(t, c, bins, &out)

	// 1. SIGKILL worker 0 once it has uploaded a shard.
	cmd, err := l.WorkerCommand(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	mine := net.SHA256() + "/0/"
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if objs, _ := shards.List(ctx, mine); len(objs) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("worker 0 uploaded nothing in 3 minutes\n%s", out.String())
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	before, _, _ := shardCounts(t, shards) // every shard in the store decodes: none is partial
	old := map[string][]byte{}
	maxSeq := -1
	objs, _ := shards.List(ctx, mine)
	for _, o := range objs {
		old[o.Key], _ = shards.Get(ctx, o.Key)
		_, _, seq, _ := ingest.ParseKey(o.Key)
		maxSeq = max(maxSeq, seq)
	}
	cmd, _ = l.WorkerCommand(ctx, 0)
	if err := cmd.Run(); err != nil {
		t.Fatalf("restarted worker 0: %v\n%s", err, out.String())
	}
	after, _, games := shardCounts(t, shards)
	if after <= before {
		t.Fatalf("the restarted worker added no shard (%d, then %d)", before, after)
	}
	for id, n := range games {
		if n > 1 {
			t.Fatalf("game %#x is in %d shards", id, n)
		}
	}
	var rec cluster.WorkerStart
	if b, err := shards.Get(ctx, "workers/0.json"); err != nil || json.Unmarshal(b, &rec) != nil || rec.Starts != 2 || rec.NextSeq <= maxSeq {
		t.Fatalf("workers/0.json: %+v, %v (the first start's last shard %d)", rec, err, maxSeq)
	}
	for k, b := range old { // the restart overwrote nothing (a re-upload of a spooled shard puts the same bytes)
		if now, err := shards.Get(ctx, k); err != nil || !bytes.Equal(now, b) {
			t.Fatalf("%s changed after the restart: %v", k, err)
		}
	}
	t.Logf("kill: %d shards before the restart, %d after, %d games each in one shard", before, after, len(games))

	// 2. The store goes away for 30 s while both workers play for 40 s.
	c.WorkerGames, c.WorkerDuration, c.PerShard = 0, "40s", 2000
	outage(t, gw, c, bins, l.Work, shards)
}

// outage runs c's two data workers for c.WorkerDuration with their spools under work, and
// stops the store for 30 s under them: they keep playing, upload afterwards, every position
// they report is in the store, no game twice, and ingest takes every one of them (positions
// in = positions ingested). It returns the positions.
func outage(t *testing.T, gw *gateway, c Config, bins, work string, shards store.Store) int {
	t.Helper()
	ctx := context.Background()
	_, examplesBefore, _ := shardCounts(t, shards)
	var out2 syncBuf
	l2 := localRun(t, c, bins, &out2)
	l2.Work = work // the same pods' spools
	done := make(chan error, 1)
	go func() { done <- l2.RunWorkers(ctx, 2) }()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if strings.Count(out2.String(), ": start ") >= 2 { // both recorded their start in the store
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the workers did not start\n%s", out2.String())
		}
	}
	gw.stop()
	t.Log("store down")
	spooled := 0
	for t0 := time.Now(); time.Since(t0) < 30*time.Second; time.Sleep(time.Second) {
		for i := range 2 {
			sp := &store.Spool{Dir: filepath.Join(work, fmt.Sprintf("selfplay-%d", i), "spool")}
			if p, _ := sp.Pending(); len(p) > spooled {
				spooled = len(p)
			}
		}
	}
	gw.start(t)
	t.Logf("store back; at most %d shards waited in a spool", spooled)
	if err := <-done; err != nil {
		t.Fatalf("%v\n%s", err, out2.String())
	}
	if spooled == 0 {
		t.Fatalf("no shard waited while the store was down: the workers did not play through the outage\n%s", out2.String())
	}
	reported, failed := 0, 0
	for _, m := range workerLine.FindAllStringSubmatch(out2.String(), -1) {
		n, _ := strconv.Atoi(m[3])
		f, _ := strconv.Atoi(m[5])
		reported += n
		failed += f
	}
	_, examplesAfter, games := shardCounts(t, shards)
	if got := examplesAfter - examplesBefore; got != reported || reported == 0 || failed == 0 {
		t.Fatalf("after the outage the store gained %d positions, the workers reported %d (%d failed upload passes)\n%s",
			got, reported, failed, out2.String())
	}
	for id, n := range games {
		if n > 1 {
			t.Fatalf("game %#x is in %d shards", id, n)
		}
	}
	g, _ := registry.Lookup(c.Game)
	rep, err := ingest.Run(ctx, ingest.Config{Shards: shards, Expect: data.Expect{Game: c.Game, EncoderVersion: g.Info().EncoderVersion},
		Game: g, Cache: t.TempDir(), Log: io.Discard})
	if err != nil || rep.Rejected != 0 || rep.Examples != examplesAfter {
		t.Fatalf("ingest after the outage: %v, %v: the store holds %d positions", rep, err, examplesAfter)
	}
	t.Logf("outage: %d positions played, all in the store and all ingested; %d failed upload passes", reported, failed)
	return reported
}
