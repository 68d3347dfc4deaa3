package main

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"time"

	"github.com/lore-dev/lore/internal/config"
	"github.com/lore-dev/lore/internal/embed"
)

func init() {
	register("model", command{summary: "download a model2vec embedding model (model pull <hf-repo-id>)", run: runModel})
}

func runModel(ctx context.Context, a *cli, args []string) error {
	fs := flag.NewFlagSet("model", flag.ContinueOnError)
	quiet := fs.Bool("quiet", false, "no progress")
	fs.Usage = func() {
		commandUsage(fs, "lore model pull <hf-repo-id>   (e.g. minishlab/potion-code-16M)")
	}
	pos, err := parseFlags(a, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || pos[0] != "pull" {
		return usagef("usage: lore model pull <hf-repo-id>")
	}
	cache, err := config.CacheDir()
	if err != nil {
		return err
	}
	var mu sync.Mutex
	last := time.Time{}
	progress := func(done, total int64) {
		if *quiet {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if time.Since(last) < 200*time.Millisecond && done != total {
			return
		}
		last = time.Now()
		if total > 0 {
			fmt.Fprintf(a.stderr, "\r%s: %d/%d MiB", pos[1], done>>20, total>>20)
		}
	}
	dir, err := embed.Pull(ctx, pos[1], cache, progress)
	if !*quiet {
		fmt.Fprintln(a.stderr)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "%s\nindex with: lore index --embedder model2vec:%s PATH\n", dir, dir)
	return nil
}
