package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sort"
	"sync"
	"time"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/index"
)

// Job states.
const (
	JobRunning   = "running"
	JobSucceeded = "succeeded"
	JobFailed    = "failed"
	JobCancelled = "cancelled"
)

// maxFinishedJobs bounds the finished jobs kept for their callers to read;
// the oldest go first.
const maxFinishedJobs = 100

// Job is a background index run of a named collection, as the REST API
// reports it.
type Job struct {
	ID         string       `json:"id"`
	Collection string       `json:"collection"`
	Root       string       `json:"root"`
	State      string       `json:"state"`
	Done       int          `json:"done"`  // files processed so far
	Total      int          `json:"total"` // files to process; 0 until the walk is done
	Started    time.Time    `json:"started"`
	Finished   *time.Time   `json:"finished,omitempty"`
	Stats      *index.Stats `json:"stats,omitempty"`
	Error      *JobError    `json:"error,omitempty"`
}

// JobError is why a job failed.
type JobError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// jobs runs and remembers background index runs.
type jobs struct {
	mu   sync.Mutex
	all  map[string]*jobEntry
	wg   sync.WaitGroup
	stop context.CancelFunc
	ctx  context.Context
}

type jobEntry struct {
	job    Job
	cancel context.CancelFunc
	done   chan struct{} // closed when the run has ended and job is final
}

func newJobs() *jobs {
	ctx, stop := context.WithCancel(context.Background())
	return &jobs{all: map[string]*jobEntry{}, ctx: ctx, stop: stop}
}

// StartIndexJob indexes root as the named collection in the background
// and returns the job at once. The name and the root are checked first;
// the caller has confined the root to what it may index.
func (a *App) StartIndexJob(name, root string) (Job, error) {
	if name != "" {
		if err := CheckCollectionName(name); err != nil {
			return Job{}, err
		}
	}
	j := a.jobs
	ctx, cancel := context.WithCancel(j.ctx)
	e := &jobEntry{cancel: cancel, done: make(chan struct{}), job: Job{ID: newJobID(), Collection: name, Root: root, State: JobRunning, Started: time.Now().UTC()}}
	j.mu.Lock()
	j.all[e.job.ID] = e
	j.prune()
	j.mu.Unlock()
	j.wg.Add(1)
	go func() {
		defer j.wg.Done()
		defer close(e.done) // after the deferred unlock below: the job is final
		defer cancel()
		used, stats, err := a.IndexCollection(ctx, name, IndexRequest{Root: root, Progress: func(p index.Progress) {
			j.mu.Lock()
			e.job.Done, e.job.Total = p.Done, p.Total
			j.mu.Unlock()
		}})
		j.mu.Lock()
		defer j.mu.Unlock()
		now := time.Now().UTC()
		e.job.Finished = &now
		if used != "" {
			e.job.Collection = used
		}
		switch {
		case err == nil:
			e.job.State, e.job.Stats = JobSucceeded, stats
		case errs.KindOf(err) == errs.Cancelled:
			e.job.State = JobCancelled
		default:
			e.job.State = JobFailed
			code, message := errs.CodeInternal, "internal error; the server log has the details"
			if te, ok := errs.As(err); ok && te.Message != "" {
				code, message = te.Code, te.Message
			}
			e.job.Error = &JobError{Code: code, Message: message}
		}
	}()
	return a.Job(e.job.ID)
}

// Job reports on a job; an unknown id is NotFound (JOB_NOT_FOUND).
func (a *App) Job(id string) (Job, error) {
	a.jobs.mu.Lock()
	defer a.jobs.mu.Unlock()
	e, ok := a.jobs.all[id]
	if !ok {
		return Job{}, errs.New(errs.NotFound, errs.CodeJobNotFound, "job %q not found", id).With("job", id)
	}
	return e.job, nil
}

// WaitJob waits until a job has ended, or ctx ends, and reports on it; an
// unknown id is NotFound (JOB_NOT_FOUND).
func (a *App) WaitJob(ctx context.Context, id string) (Job, error) {
	a.jobs.mu.Lock()
	e, ok := a.jobs.all[id]
	a.jobs.mu.Unlock()
	if !ok {
		return Job{}, errs.New(errs.NotFound, errs.CodeJobNotFound, "job %q not found", id).With("job", id)
	}
	select {
	case <-e.done:
	case <-ctx.Done():
		return Job{}, ctx.Err()
	}
	a.jobs.mu.Lock()
	defer a.jobs.mu.Unlock()
	return e.job, nil
}

// CancelJob asks a running job to stop; its index keeps its previous
// generation. Cancelling a finished job changes nothing.
func (a *App) CancelJob(id string) (Job, error) {
	a.jobs.mu.Lock()
	e, ok := a.jobs.all[id]
	a.jobs.mu.Unlock()
	if !ok {
		return Job{}, errs.New(errs.NotFound, errs.CodeJobNotFound, "job %q not found", id).With("job", id)
	}
	e.cancel()
	return a.Job(id)
}

// WaitJobs cancels every running job and waits until they have stopped,
// or ctx ends: what a server does when it shuts down.
func (a *App) WaitJobs(ctx context.Context) error {
	a.jobs.stop()
	done := make(chan struct{})
	go func() {
		a.jobs.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// prune forgets the oldest finished jobs beyond maxFinishedJobs. The
// caller holds j.mu.
func (j *jobs) prune() {
	var finished []*jobEntry
	for _, e := range j.all {
		if e.job.Finished != nil {
			finished = append(finished, e)
		}
	}
	if len(finished) <= maxFinishedJobs {
		return
	}
	sort.Slice(finished, func(a, b int) bool { return finished[a].job.Finished.Before(*finished[b].job.Finished) })
	for _, e := range finished[:len(finished)-maxFinishedJobs] {
		delete(j.all, e.job.ID)
	}
}

func newJobID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
