package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

type User struct{ ent.Schema }

func (User) Fields() []ent.Field {
	return []ent.Field{field.Int("tenant_id"), field.String("name")}
}

type Order struct{ ent.Schema }

func (Order) Fields() []ent.Field {
	return []ent.Field{field.Int("tenant_id"), field.Bool("paid")}
}
