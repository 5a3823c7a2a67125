"""config.api.StrictSerializer makes its fields afresh for each instance (``fresh_field``) as
DRF's deep copy does: no field, nested field or changeable argument is shared between two
serializers, and they validate alike."""

from __future__ import annotations

import copy

import pytest
from rest_framework import serializers

from config.api import StrictSerializer, fresh_field


class Inner(StrictSerializer):
    n = serializers.IntegerField(min_value=0)


class Sample(StrictSerializer):
    move = serializers.JSONField(help_text="any JSON")
    version = serializers.IntegerField(required=False, min_value=0, max_value=9)
    tags = serializers.ListField(child=serializers.CharField(max_length=3), default=list,
                                 required=False)
    kind = serializers.ChoiceField(choices=["a", "b"], required=False)
    extra = serializers.DictField(required=False, default={"k": []})
    inner = Inner(required=False)
    many = Inner(many=True, required=False)


def _fields(serializer):
    return serializer.fields


def test_each_serializer_gets_fields_of_its_own():
    first, second = _fields(Sample(data={})), _fields(Sample(data={}))
    for name, field in first.items():
        assert field is not second[name]
        assert field is not Sample._declared_fields[name]
        assert field.parent is not second[name].parent
    assert first["tags"].child is not second["tags"].child
    assert first["many"].child is not second["many"].child
    assert first["inner"].fields["n"] is not second["inner"].fields["n"]
    # A changeable argument is not shared, a text is.
    assert first["extra"].default == {"k": []}
    assert first["extra"].default is not second["extra"].default
    assert first["move"].help_text is Sample._declared_fields["move"].help_text


@pytest.mark.parametrize("data", [
    {"move": {"take": [[1, 2]]}, "version": 3, "tags": ["ab"], "kind": "a",
     "inner": {"n": 1}, "many": [{"n": 2}]},
    {"move": None},
    {"move": 1, "version": 10},
    {"move": 1, "version": -1, "tags": ["long"], "kind": "c"},
    {"move": 1, "inner": {"n": -1}, "many": [{"n": "x"}]},
    {"version": 1},
])
def test_fresh_fields_validate_as_deep_copies_do(data):
    class DeepCopied(Sample):
        def get_fields(self):
            return copy.deepcopy(self._declared_fields)

    ours, drf = Sample(data=data), DeepCopied(data=data)
    assert ours.is_valid() == drf.is_valid()
    assert ours.errors == drf.errors
    if not ours.errors:
        assert ours.validated_data == drf.validated_data


def test_a_fresh_field_keeps_its_arguments():
    field = serializers.IntegerField(min_value=2, max_value=5, help_text="h", required=False)
    fresh = fresh_field(field)
    assert type(fresh) is type(field) and fresh is not field
    assert (fresh.min_value, fresh.max_value, fresh.help_text, fresh.required) == (2, 5, "h",
                                                                                   False)
