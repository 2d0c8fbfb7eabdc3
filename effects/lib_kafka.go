package effects

// Kafka: a produce is a webhook whose topic is the constant topic of
// what is written. segmentio/kafka-go writes through a Writer whose Topic
// field names it (read where the writer is built in sight); franz-go
// produces Records whose Topic field names it. A topic set elsewhere (a
// writer built in main, a client's default topic) is not constant here,
// so the write is unprovable.
const (
	kafkaGoPath = "github.com/segmentio/kafka-go"
	franzGoPath = "github.com/twmb/franz-go/pkg/kgo"
)

func kafkaLibrary() *Library {
	return &Library{
		Name:  "kafka",
		Paths: []string{kafkaGoPath, franzGoPath},
		Models: map[string]model{
			kafkaGoPath + ".Writer.WriteMessages": kafkaGoWrite,
			// Close flushes what WriteMessages already counted.
			kafkaGoPath + ".Writer.Close":       readModel,
			franzGoPath + ".Client.Produce":     webhookTopicField(arg(franzGoPath + ".Client.Produce.r")),
			franzGoPath + ".Client.TryProduce":  webhookTopicField(arg(franzGoPath + ".Client.TryProduce.r")),
			franzGoPath + ".Client.ProduceSync": webhookTopicField(arg(franzGoPath + ".Client.ProduceSync.rs")), // the records' topics
		},
	}
}

// kafkaGoWrite: (*kafka.Writer).WriteMessages(ctx, msgs...), to the
// writer's Topic.
func kafkaGoWrite(c *callSite) {
	c.emit(Pending{Op: OpSubject, Kind: Webhook, Text: c.fieldStr(0, "Topic")})
	c.handOffArgs(2)
}

// webhookTopicField dispatches the topic in the Topic field of the record
// at argument i (receiver counted).
func webhookTopicField(i int) model {
	return func(c *callSite) {
		c.emit(Pending{Op: OpSubject, Kind: Webhook, Text: c.fieldStr(i, "Topic")})
		c.handOffArgs(i + 1)
	}
}
