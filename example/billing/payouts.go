package billing

import (
	"encoding/json"
	"net/http"
)

// DraftPayout drafts a refund and, wrongly, also a payout: the payouts
// table is not in RefundDrafter's Writes, so authvet reports the call.
// (This is the example's deliberate violation.)
//
//agent:operable grant=RefundDrafter
func (s *Server) DraftPayout(w http.ResponseWriter, r *http.Request) {
	var in draftRefundRequest
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
		return
	}
	id, err := s.store.CreateRefund(r.Context(), tenant(r), in.ChargeID, in.Amount)
	if err != nil {
		http.Error(w, "could not record refund", http.StatusInternalServerError)
		return
	}
	if err := s.store.CreatePayout(r.Context(), tenant(r), in.Amount); err != nil {
		http.Error(w, "could not record payout", http.StatusInternalServerError)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"refund_id": id})
}
