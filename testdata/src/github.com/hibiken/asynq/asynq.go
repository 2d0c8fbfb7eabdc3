// Package asynq is a stub of github.com/hibiken/asynq for fixtures.
package asynq

import "context"

type Task struct {
	typename string
	payload  []byte
}

type Option interface{ String() string }

type TaskInfo struct{}

func NewTask(typename string, payload []byte, opts ...Option) *Task {
	return &Task{typename: typename, payload: payload}
}

func (t *Task) Type() string { return t.typename }

type Client struct{}

func (c *Client) Enqueue(task *Task, opts ...Option) (*TaskInfo, error) { return nil, nil }
func (c *Client) EnqueueContext(ctx context.Context, task *Task, opts ...Option) (*TaskInfo, error) {
	return nil, nil
}
