#!/usr/bin/env bash
# Debian's Slurm and MUNGE for the real-Slurm tests (test/process/slurm/jobs.test.ts), which start their
# own munged, slurmctld and two slurmd from a generated config and stop them after. Without
# these binaries those tests are skipped with a printed reason. Needs root (or sudo): slurmd
# launches job steps as root. Measured on the development machine (Debian bookworm, Slurm
# 22.05.8): about 8 s for update + install, 43 packages, 8.4 MB fetched.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
if have slurmctld && have slurmd && have munged && have sbatch; then
  echo "slurm-wlm and munge already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q slurm-wlm munge
