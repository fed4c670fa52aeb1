package kube

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"colony/cluster"
)

// TestManifestsUpToDate regenerates deploy/k8s from DefaultConfig, compares it with the
// committed files (run `go run ./cmd/cluster manifests` after changing the configuration),
// and decodes every file strictly into the Kubernetes types.
func TestManifestsUpToDate(t *testing.T) {
	files, err := DefaultConfig().Render()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "deploy", "k8s")
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(files) {
		t.Errorf("%s holds %d files, the configuration makes %d", dir, len(ents), len(files))
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is not what kube.DefaultConfig generates (%v): run go run ./cmd/cluster manifests -o deploy/k8s", name, err)
		}
	}
	d, err := Decode(dir)
	if err != nil {
		t.Fatal(err)
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
