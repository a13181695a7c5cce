"""The first schema: games, their seats and their actions."""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("scenario_id", sa.String(200), nullable=False),
        sa.Column("scenario", sa.Text, nullable=False),
        sa.Column("seed", sa.String(20), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("side", sa.String(40), primary_key=True),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("side", sa.String(40), nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("game_id", "number", name="one_action_per_number"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_seats_token_hash", "seats")
    op.drop_table("seats")
    op.drop_table("games")
