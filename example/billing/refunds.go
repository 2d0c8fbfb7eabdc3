package billing

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

type draftRefundRequest struct {
	ChargeID string `json:"charge_id"`
	Amount   int64  `json:"amount"`
}

// DraftRefund records a draft refund and asks Stripe to create it.
//
//agent:operable grant=RefundDrafter
func (s *Server) DraftRefund(w http.ResponseWriter, r *http.Request) {
	var in draftRefundRequest
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()

	id, err := s.store.CreateRefund(ctx, tenant(r), in.ChargeID, in.Amount)
	if err != nil {
		http.Error(w, "could not record refund", http.StatusInternalServerError)
		return
	}

	form := url.Values{}
	form.Set("charge", in.ChargeID)
	form.Set("amount", strconv.FormatInt(in.Amount, 10))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.stripe.com/v1/refunds", strings.NewReader(form.Encode()))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+s.apiKey)
	req.Header.Set("Idempotency-Key", fmt.Sprintf("refund-%d", id))
	resp, err := stripeHTTP.Do(req)
	if err != nil {
		http.Error(w, "stripe unavailable", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()

	state := "submitted"
	if resp.StatusCode >= 300 {
		state = "rejected"
	}
	if err := s.store.SetRefundState(ctx, tenant(r), id, state); err != nil {
		http.Error(w, "could not update refund", http.StatusInternalServerError)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"id": id, "state": state})
}

// ListRefunds lists the caller's tenant's refunds.
//
//agent:operable grant=RefundReader
func (s *Server) ListRefunds(w http.ResponseWriter, r *http.Request) {
	limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil || limit <= 0 || limit > 100 {
		limit = 20
	}
	refunds, err := s.store.ListRefunds(r.Context(), tenant(r), limit)
	if err != nil {
		http.Error(w, "could not list refunds", http.StatusInternalServerError)
		return
	}
	writeJSON(w, http.StatusOK, refunds)
}

// RefundStatus asks Stripe for one refund's status.
//
//agent:operable grant=RefundDrafter
func (s *Server) RefundStatus(w http.ResponseWriter, r *http.Request) {
	req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, "https://api.stripe.com/v1/refunds/"+url.PathEscape(r.PathValue("id")), nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Header.Set("Authorization", "Bearer "+s.apiKey)
	resp, err := stripeHTTP.Do(req)
	if err != nil {
		http.Error(w, "stripe unavailable", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	var out struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		http.Error(w, "bad response from stripe", http.StatusBadGateway)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
