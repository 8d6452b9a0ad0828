// The Contacts record's columns as read-only NumPy properties, expanded from the one list of
// lib/e3/contacts/contact_columns.h.
#pragma once

#include <pybind11/pybind11.h>

#include "e3/contacts/contacts.h"

namespace impulse::python {

/// The record that a Python Contacts object holds.
using ContactsOf = Contacts& (*)(pybind11::handle self);

/// Adds one read-only property per column to cls: an (rigid_contact_max,) array of int or real, or
/// (rigid_contact_max, 3) for a vec3 column; a view of the record's CPU buffer kept alive by self.
void def_contact_columns(pybind11::handle cls, ContactsOf contacts_of);

}  // namespace impulse::python
