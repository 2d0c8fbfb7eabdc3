// Package temporalsvc starts Temporal workflows: each start is a job whose
// kind is the workflow's type name.
package temporalsvc

import (
	"context"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/workflow"

	"github.com/authvet/authvet/grant"
)

var Charges = grant.Grant{
	Jobs:          []string{"ChargeWorkflow"},
	Reversibility: grant.Compensable,
}

var Reads = grant.Grant{Reversibility: grant.Reversible}

func ChargeWorkflow(ctx workflow.Context, id string) error { return nil }
func RefundWorkflow(ctx workflow.Context, id string) error { return nil }

type Workflows struct{}

func (Workflows) ChargeWorkflow(ctx workflow.Context, id string) error { return nil }
func (Workflows) PayoutWorkflow(ctx workflow.Context, id string) error { return nil }

type Server struct {
	tc  client.Client
	log *slog.Logger
}

func opts(id string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{ID: "charge-" + id, TaskQueue: "billing"}
}

//agent:operable grant=Charges
func (s *Server) ChargeByName(ctx context.Context, id string) (string, error) {
	run, err := s.tc.ExecuteWorkflow(ctx, opts(id), "ChargeWorkflow", id)
	if err != nil {
		return "", err
	}
	s.log.Info("started", "run", run.GetRunID(), "at", time.Now())
	return run.GetID(), nil
}

//agent:operable grant=Charges
func (s *Server) ChargeByFunc(ctx context.Context, id string) error {
	_, err := s.tc.ExecuteWorkflow(ctx, opts(id), ChargeWorkflow, id)
	return err
}

//agent:operable grant=Charges
func (s *Server) ChargeByMethod(ctx context.Context, id string) error {
	var w Workflows
	_, err := s.tc.ExecuteWorkflow(ctx, opts(id), w.ChargeWorkflow, id)
	return err
}

//agent:operable grant=Charges
func (s *Server) Refund(ctx context.Context, id string) error {
	_, err := s.tc.ExecuteWorkflow(ctx, opts(id), RefundWorkflow, id) // want `Refund starts job "RefundWorkflow"`
	return err
}

//agent:operable grant=Charges
func (s *Server) Payout(ctx context.Context, id string) error {
	var w Workflows
	_, err := s.tc.SignalWithStartWorkflow(ctx, "payout-"+id, "go", nil, opts(id), w.PayoutWorkflow, id) // want `Payout starts job "PayoutWorkflow"`
	return err
}

//agent:operable grant=Charges
func (s *Server) ByVariable(ctx context.Context, id, kind string) error {
	_, err := s.tc.ExecuteWorkflow(ctx, opts(id), kind, id) // want `ByVariable starts a job whose kind is not constant`
	return err
}

// Clean twin: reading a workflow's state is not an effect.
//
//agent:operable grant=Reads
func (s *Server) Status(ctx context.Context, id string) (string, error) {
	d, err := s.tc.DescribeWorkflowExecution(ctx, "charge-"+id, "")
	if err != nil {
		return "", err
	}
	run := s.tc.GetWorkflow(ctx, "charge-"+id, "")
	var out string
	if err := run.Get(ctx, &out); err != nil {
		return "", err
	}
	s.log.Info("status", "info", d.GetWorkflowExecutionInfo().GetStatus().String())
	return out, nil
}

// Cancelling a running workflow is not a job start, and not readable as
// one: unprovable.
//
//agent:operable grant=Charges
func (s *Server) Cancel(ctx context.Context, id string) error {
	return s.tc.CancelWorkflow(ctx, "charge-"+id, "") // want `Cancel calls CancelWorkflow through the interface client.Client`
}
