package kube

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"

	"colony/cluster"
)

// Local runs the pods of the generated manifests as local processes, the way Kubernetes
// would start their containers: the command and arguments of the manifest, with the
// environment from its ConfigMap, the Secret's keys taken from the local environment,
// JOB_COMPLETION_INDEX set to the pod's index, $(VAR) references expanded, the image's /colony/
// binaries replaced by Bin's and each emptyDir volume by a local directory.
type Local struct {
	Manifests *Decoded
	Bin       string    // directory of the local binaries (the image's /colony/)
	Work      string    // pods' volumes go under Work/<pod>/<volume>
	Env       []string  // the local environment the Secret's keys come from (default os.Environ())
	Stdout    io.Writer // the pods' output (default os.Stderr)
}

// WorkerPods is the number of pods of the self-play Indexed Job.
func (l *Local) WorkerPods() int {
	if c := l.Manifests.SelfPlay.Spec.Completions; c != nil {
		return int(*c)
	}
	return 1
}

// WorkerCommand is the process of the self-play Job's pod index.
func (l *Local) WorkerCommand(ctx context.Context, index int) (*exec.Cmd, error) {
	return l.command(ctx, fmt.Sprintf("selfplay-%d", index), l.Manifests.SelfPlay.Spec.Template.Spec, index)
}

// GatePods is the number of pods of the gate's Indexed Job (0 without one).
func (l *Local) GatePods() int {
	if l.Manifests.Gate == nil {
		return 0
	}
	if c := l.Manifests.Gate.Spec.Completions; c != nil {
		return int(*c)
	}
	return 1
}

// GateCommand is the process of the gate Job's pod index.
func (l *Local) GateCommand(ctx context.Context, index int) (*exec.Cmd, error) {
	if l.Manifests.Gate == nil {
		return nil, errors.New("cluster: the manifests have no gate Job")
	}
	return l.command(ctx, fmt.Sprintf("gate-%d", index), l.Manifests.Gate.Spec.Template.Spec, index)
}

// TrainerCommand is the process of the trainer's pod.
func (l *Local) TrainerCommand(ctx context.Context) (*exec.Cmd, error) {
	spec := corev1.PodSpec{}
	switch {
	case l.Manifests.Trainer != nil:
		spec = l.Manifests.Trainer.Spec.Template.Spec
	case l.Manifests.Cron != nil:
		spec = l.Manifests.Cron.Spec.JobTemplate.Spec.Template.Spec
	}
	return l.command(ctx, "trainer", spec, -1)
}

// RunWorkers runs the self-play pods of indices 0..n-1 at once and waits for all of them.
func (l *Local) RunWorkers(ctx context.Context, n int) error {
	return runPods(ctx, "selfplay", n, l.WorkerCommand)
}

// RunGate runs the gate pods of indices 0..n-1 at once and waits for all of them.
func (l *Local) RunGate(ctx context.Context, n int) error {
	return runPods(ctx, "gate", n, l.GateCommand)
}

// runPods runs the pods made by pod for indices 0..n-1 at once and waits for all of them.
func runPods(ctx context.Context, name string, n int, pod func(context.Context, int) (*exec.Cmd, error)) error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		cmd, err := pod(ctx, i)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := cmd.Run(); err != nil {
				errs[i] = fmt.Errorf("pod %s-%d: %w", name, i, err)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (l *Local) command(ctx context.Context, pod string, spec corev1.PodSpec, index int) (*exec.Cmd, error) {
	if len(spec.Containers) != 1 {
		return nil, fmt.Errorf("cluster: pod %s has %d containers, a local run takes 1", pod, len(spec.Containers))
	}
	c := spec.Containers[0]
	env, err := l.environment(c, index)
	if err != nil {
		return nil, fmt.Errorf("cluster: pod %s: %w", pod, err)
	}
	mounts := map[string]string{}
	for _, v := range spec.Volumes {
		if v.EmptyDir == nil {
			return nil, fmt.Errorf("cluster: pod %s: volume %s is not an emptyDir", pod, v.Name)
		}
	}
	for _, m := range c.VolumeMounts {
		dir := filepath.Join(l.Work, pod, m.Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		mounts[m.MountPath] = dir
	}
	argv := append(append([]string{}, c.Command...), c.Args...)
	if len(argv) == 0 {
		return nil, fmt.Errorf("cluster: pod %s has no command", pod)
	}
	for i, a := range argv {
		a = Expand(a, env)
		if rest, ok := strings.CutPrefix(a, ImageBin); ok && i == 0 {
			a = filepath.Join(l.Bin, rest)
		}
		if dir, ok := mounts[a]; ok {
			a = dir
		}
		argv[i] = a
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if p := os.Getenv("PATH"); p != "" {
		cmd.Env = append(cmd.Env, "PATH="+p)
	}
	out := l.Stdout
	if out == nil {
		out = os.Stderr
	}
	cmd.Stdout, cmd.Stderr = out, out
	return cmd, nil
}

// environment is the container's environment as Kubernetes builds it.
func (l *Local) environment(c corev1.Container, index int) (map[string]string, error) {
	local := map[string]string{}
	base := l.Env
	if base == nil {
		base = os.Environ()
	}
	for _, kv := range base {
		if k, v, ok := strings.Cut(kv, "="); ok {
			local[k] = v
		}
	}
	env := map[string]string{}
	cm := l.Manifests.ConfigMap
	for _, f := range c.EnvFrom {
		if f.ConfigMapRef == nil || f.ConfigMapRef.Name != cm.Name {
			return nil, fmt.Errorf("envFrom other than the ConfigMap %s", cm.Name)
		}
		for k, v := range cm.Data {
			env[f.Prefix+k] = v
		}
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = Expand(e.Value, env)
		case e.ValueFrom.SecretKeyRef != nil:
			env[e.Name] = local[e.ValueFrom.SecretKeyRef.Key] // the Secret's keys are the local variables
		case e.ValueFrom.ConfigMapKeyRef != nil:
			env[e.Name] = cm.Data[e.ValueFrom.ConfigMapKeyRef.Key]
		case e.ValueFrom.FieldRef != nil && strings.Contains(e.ValueFrom.FieldRef.FieldPath, "job-completion-index"):
			if index < 0 {
				return nil, fmt.Errorf("%s outside an Indexed Job", e.Name)
			}
			env[e.Name] = strconv.Itoa(index)
		default:
			return nil, fmt.Errorf("env %s: a source a local run does not know", e.Name)
		}
	}
	if index >= 0 {
		env[cluster.EnvIndex] = strconv.Itoa(index) // as the Job controller sets it
	}
	return env, nil
}

// Expand replaces $(VAR) by env's VAR as Kubernetes does in commands and arguments: an
// unknown reference stays as it is, and $$ is one $.
func Expand(s string, env map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '$' && i+1 < len(s) && s[i+1] == '$':
			b.WriteByte('$')
			i++
		case s[i] == '$' && i+1 < len(s) && s[i+1] == '(':
			end := strings.IndexByte(s[i:], ')')
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			name := s[i+2 : i+end]
			if v, ok := env[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString(s[i : i+end+1])
			}
			i += end
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// RunGeneration runs the self-play Job's pods, the gate Job's (NNUE) and the trainer's pod
// together, as Kubernetes would: the trainer creates the run (best.model, best.nnue) that the
// workers wait for, then waits for their shards and trains; the gate workers wait for its
// gate, play pairs until it decides, and the trainer promotes.
func (l *Local) RunGeneration(ctx context.Context) error {
	tr, err := l.TrainerCommand(ctx)
	if err != nil {
		return err
	}
	if err := tr.Start(); err != nil {
		return err
	}
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	gerr := make(chan error, 1)
	go func() { gerr <- l.RunGate(gctx, l.GatePods()) }()
	werr := l.RunWorkers(ctx, l.WorkerPods())
	terr := tr.Wait()
	if terr != nil {
		terr = fmt.Errorf("pod trainer: %w", terr)
		cancel() // no gate will open: the gate pods end
	}
	return errors.Join(werr, terr, <-gerr)
}
