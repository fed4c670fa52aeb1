package kube

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"colony/cluster"
)

// TestManifestsUpToDate regenerates deploy/k8s from DefaultConfig, compares it with the
// committed files (run `go run ./cmd/cluster manifests` after changing the configuration),
// and decodes every file strictly into the Kubernetes types.
func TestManifestsUpToDate(t *testing.T) {
	d := upToDate(t, DefaultConfig(), "k8s", "")
	if d.Gate != nil {
		t.Error("the PUCT cycle's manifests have a gate Job")
	}
	job := d.SelfPlay
	if *job.Spec.Completions != 8 || *job.Spec.Parallelism != 8 {
		t.Errorf("self-play Job: completions %d, parallelism %d", *job.Spec.Completions, *job.Spec.Parallelism)
	}
	pod := job.Spec.Template.Spec
	c := pod.Containers[0]
	if !slices.Contains(c.Args, "$(JOB_COMPLETION_INDEX)") || c.Env[0].Name != cluster.EnvIndex {
		t.Errorf("the worker's index is not JOB_COMPLETION_INDEX: args %v", c.Args)
	}
	if c.Resources.Requests.Cpu().String() != "1" || c.Resources.Limits.Memory().String() != "1Gi" {
		t.Errorf("worker resources %+v", c.Resources)
	}
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
		t.Error("the worker pod may run as root")
	}
	secrets := 0
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Name == "colony-s3" {
			secrets++
		}
	}
	if secrets != 2 {
		t.Errorf("%d credentials from the Secret, want 2", secrets)
	}
	if d.Trainer == nil || d.Trainer.Spec.Template.Spec.Containers[0].Command[0] != ImageBin+"cluster" {
		t.Errorf("trainer Job: %+v", d.Trainer)
	}
	if d.ConfigMap.Data["COLONY_STORE"] != "s3://colony/run1" {
		t.Errorf("ConfigMap %v", d.ConfigMap.Data)
	}
}

// upToDate regenerates deploy/<dir> from c, compares it with the committed files byte for
// byte, and decodes them strictly.
func upToDate(t *testing.T, c Config, dir, flags string) *Decoded {
	t.Helper()
	files, err := c.Render()
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join("..", "..", "deploy", dir)
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(files) {
		t.Errorf("%s holds %d files, the configuration makes %d", dir, len(ents), len(files))
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is not what the default configuration generates (%v): run go run ./cmd/cluster manifests%s -o deploy/%s", name, err, flags, filepath.Base(dir))
		}
	}
	d, err := Decode(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestNNUEManifests: deploy/k8s-nnue is what DefaultNNUEConfig makes (cluster manifests
// -nnue), decoded strictly: the nnab data Job, the gate's Indexed Job and the trainer; and a
// local run's trainer and gate pods run exactly the manifests' command and arguments with the
// ConfigMap's values, and the ConfigMap's environment.
func TestNNUEManifests(t *testing.T) {
	d := upToDate(t, DefaultNNUEConfig(), "k8s-nnue", " -nnue")
	if d.Gate == nil || d.Trainer == nil {
		t.Fatalf("no gate Job or trainer: %+v", d)
	}
	data := strings.Join(d.SelfPlay.Spec.Template.Spec.Containers[0].Args, " ")
	for _, want := range []string{"-bootstrap -engine nnab", "-model $(COLONY_STORE)/best.nnue", "-nodes $(COLONY_NODES)", "-scores"} {
		if !strings.Contains(data, want) {
			t.Errorf("data Job args %q lack %q", data, want)
		}
	}
	work := t.TempDir()
	l := &Local{Manifests: d, Bin: "/opt/bin", Work: work, Env: []string{"AWS_ACCESS_KEY_ID=k", "AWS_SECRET_ACCESS_KEY=s"}}
	cm := d.ConfigMap.Data
	// The manifest's argv with every $(COLONY_...) replaced by the ConfigMap's value, the
	// image's binary by the local one and the mounted volume by its local directory.
	expect := func(c corev1.Container, pod string) []string {
		var out []string
		for i, a := range append(append([]string{}, c.Command...), c.Args...) {
			for k, v := range cm {
				a = strings.ReplaceAll(a, "$("+k+")", v)
			}
			if i == 0 {
				a = "/opt/bin/" + strings.TrimPrefix(a, ImageBin)
			}
			if a == "/work" {
				a = filepath.Join(work, pod, "work")
			}
			out = append(out, a)
		}
		return out
	}
	tr, err := l.TrainerCommand(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := expect(d.Trainer.Spec.Template.Spec.Containers[0], "trainer")
	if !slices.Equal(tr.Args, want) || !slices.Contains(tr.Args, "-nnue") || slices.ContainsFunc(tr.Args, func(a string) bool { return strings.Contains(a, "$(") }) {
		t.Fatalf("the local trainer runs\n%q\nthe manifest says\n%q", tr.Args, want)
	}
	for k, v := range cm {
		if !slices.Contains(tr.Env, k+"="+v) {
			t.Errorf("the local trainer's environment lacks %s=%s", k, v)
		}
	}
	if l.GatePods() != 8 {
		t.Errorf("%d gate pods", l.GatePods())
	}
	gc, err := l.GateCommand(context.Background(), 5)
	if err != nil {
		t.Fatal(err)
	}
	gw := expect(d.Gate.Spec.Template.Spec.Containers[0], "gate-5")
	for i := range gw {
		gw[i] = strings.ReplaceAll(gw[i], "$(JOB_COMPLETION_INDEX)", "5")
	}
	if !slices.Equal(gc.Args, gw) || !slices.Contains(gc.Env, "JOB_COMPLETION_INDEX=5") {
		t.Fatalf("the local gate pod runs %q, the manifest says %q", gc.Args, gw)
	}
}

// TestDecodeStrict: a misspelt field, as hand edits make, is an error; a schedule makes the
// trainer a CronJob.
func TestDecodeStrict(t *testing.T) {
	c := DefaultConfig()
	c.Schedule = "0 * * * *"
	dir := t.TempDir()
	if _, err := c.Write(dir); err != nil {
		t.Fatal(err)
	}
	d, err := Decode(dir)
	if err != nil || d.Cron == nil || d.Cron.Spec.Schedule != c.Schedule {
		t.Fatalf("CronJob: %v, %+v", err, d)
	}
	p := filepath.Join(dir, FileSelfPlay)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte("completionMode:"), []byte("completionMod:"), 1), 0o644)
	if _, err := Decode(dir); err == nil || !strings.Contains(err.Error(), "completionMod") {
		t.Fatalf("a misspelt field decoded: %v", err)
	}
	bad := DefaultConfig()
	bad.WorkerCPU = "lots"
	if _, err := bad.Manifests(); err == nil {
		t.Fatal("a bad quantity made manifests")
	}
}

func TestExpand(t *testing.T) {
	env := map[string]string{"A": "x", "JOB_COMPLETION_INDEX": "3"}
	for in, want := range map[string]string{
		"$(A)/b": "x/b", "-$(JOB_COMPLETION_INDEX)": "-3", "$(B)": "$(B)", "$$(A)": "$(A)", "$(A": "$(A", "plain": "plain",
	} {
		if got := Expand(in, env); got != want {
			t.Errorf("Expand(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLocalCommand: a local pod gets the manifest's command and arguments with the
// ConfigMap's values, its index, the Secret's keys from the local environment, the local
// binary and a local directory for its volume.
func TestLocalCommand(t *testing.T) {
	d, err := Decode(filepath.Join("..", "..", "deploy", "k8s"))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	l := &Local{Manifests: d, Bin: "/opt/bin", Work: work, Env: []string{"AWS_ACCESS_KEY_ID=k", "AWS_SECRET_ACCESS_KEY=s", "OTHER=no"}}
	cmd, err := l.WorkerCommand(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Join(cmd.Args, " ")
	for _, want := range []string{"/opt/bin/selfplay ", "-index 3 ", "-out s3://colony/run1/shards ", "-model s3://colony/run1/best.model ",
		"-spool " + filepath.Join(work, "selfplay-3", "spool")} {
		if !strings.Contains(args, want) {
			t.Errorf("argv %q lacks %q", args, want)
		}
	}
	for _, want := range []string{"JOB_COMPLETION_INDEX=3", "AWS_ACCESS_KEY_ID=k", "AWS_SECRET_ACCESS_KEY=s", "COLONY_GAME=bacteria-war"} {
		if !slices.Contains(cmd.Env, want) {
			t.Errorf("env lacks %s: %v", want, cmd.Env)
		}
	}
	if slices.Contains(cmd.Env, "OTHER=no") {
		t.Error("the local environment leaked into the pod")
	}
	tr, err := l.TrainerCommand(context.Background())
	if err != nil || tr.Args[0] != "/opt/bin/cluster" || tr.Args[1] != "cycle" {
		t.Fatalf("trainer: %v, %v", tr.Args, err)
	}
}

// TestNNUEDefaults: -nnue brings the NNUE defaults of the settings not given, and keeps those
// given.
func TestNNUEDefaults(t *testing.T) {
	for _, tc := range []struct {
		args         []string
		games, shard int
	}{
		{[]string{"-nnue"}, 2000, 256},
		{[]string{"-nnue", "-worker-games", "5"}, 5, 256},
		{[]string{}, 200, 8},
	} {
		c := DefaultConfig()
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		c.Flags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		c.NNUEDefaults(fs)
		if c.WorkerGames != tc.games || c.MinShards != tc.shard {
			t.Errorf("%v: worker games %d, min shards %d; want %d, %d", tc.args, c.WorkerGames, c.MinShards, tc.games, tc.shard)
		}
	}
}
