# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Our stand-ins for the methodic configurator's host, for the standalone window.

Strategy: the plugin runs unchanged in both hosts, so these modules offer what 5.0.1's parameter
editor gives a plugin, with the same semantics: the plugin host creates, places, pauses and
destroys a step's plugin (`plugin_host`), the step files are loaded and schema-validated as 5.0.1
writes them (`configuration_steps`), and the step's parameter file is read and shown read-only
(`param_file`, `parameter_table`).  They never write a parameter.
"""
