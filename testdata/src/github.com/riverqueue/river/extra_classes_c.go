package river

import (
	"context"
	"time"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"
)

// Signatures copied from github.com/riverqueue/river.

type PeriodicSchedule interface {
	Next(current time.Time) time.Time
}

type PeriodicJobConstructor func() (JobArgs, *InsertOpts)

type PeriodicJobOpts struct {
	ID         string
	RunOnStart bool
}

type PeriodicJob struct {
	constructorFunc PeriodicJobConstructor
	opts            *PeriodicJobOpts
	scheduleFunc    PeriodicSchedule
}

func NewPeriodicJob(scheduleFunc PeriodicSchedule, constructorFunc PeriodicJobConstructor, opts *PeriodicJobOpts) *PeriodicJob {
	return &PeriodicJob{constructorFunc: constructorFunc, opts: opts, scheduleFunc: scheduleFunc}
}

type periodicIntervalSchedule struct{ interval time.Duration }

func (s *periodicIntervalSchedule) Next(t time.Time) time.Time { return t.Add(s.interval) }

func PeriodicInterval(interval time.Duration) PeriodicSchedule {
	return &periodicIntervalSchedule{interval}
}

type PeriodicJobBundle struct{}

func (b *PeriodicJobBundle) Add(periodicJob *PeriodicJob) rivertype.PeriodicJobHandle { return 0 }
func (b *PeriodicJobBundle) AddMany(periodicJobs []*PeriodicJob) []rivertype.PeriodicJobHandle {
	return nil
}
func (b *PeriodicJobBundle) Clear()                               {}
func (b *PeriodicJobBundle) Remove(h rivertype.PeriodicJobHandle) {}
func (c *Client[TTx]) PeriodicJobs() *PeriodicJobBundle           { return nil }
func (c *Client[TTx]) Start(ctx context.Context) error            { return nil }
func (c *Client[TTx]) Stop(ctx context.Context) error             { return nil }
func (c *Client[TTx]) Driver() riverdriver.Driver[TTx]            { return nil }
func (c *Client[TTx]) Queues() *QueueBundle                       { return nil }
func (c *Client[TTx]) JobCancel(ctx context.Context, jobID int64) (*rivertype.JobRow, error) {
	return nil, nil
}
func (c *Client[TTx]) JobGet(ctx context.Context, id int64) (*rivertype.JobRow, error) {
	return nil, nil
}
func (c *Client[TTx]) QueuePause(ctx context.Context, name string, opts *QueuePauseOpts) error {
	return nil
}

type QueuePauseOpts struct{}

type QueueConfig struct {
	MaxWorkers int
}

type QueueBundle struct{}

func (b *QueueBundle) Add(queueName string, queueConfig QueueConfig) error { return nil }
