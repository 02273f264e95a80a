# SPDX-License-Identifier: AGPL-3.0-or-later
# Sourced by the container tests (scripts/test-image.sh, scripts/test-install.sh):
# podman as root on a Debian 12 host that reaches Debian's archive but no image
# registry. Needs the caller's say, ok and die functions; defines
#   podman=(...)  podman with the runtime options below
#   limits=(...)  --ulimit options for `podman run` and `podman build`
#   debian_base_images AREA   makes the debian:12 and debian:12-slim images from
#                 Debian packages (mmdebstrap, the host's apt sources) unless podman
#                 has them (CASA_IMAGE_BASE_REBUILD=1: always), working in AREA.

# Runtime options for restricted hosts (see docs/self-hosting.md, "Restricted
# environments"): runc, because crun refuses hybrid cgroup v1/v2 hierarchies;
# cgroupfs and file events, because there may be no systemd; explicit ulimits not
# above the host's hard limits, because the default ones (nofile 1048576) need
# CAP_SYS_RESOURCE. Harmless on a host that needs none of this.
nofile=$(ulimit -Hn); [ "$nofile" = unlimited ] && nofile=1048576
[ "$nofile" -gt 65536 ] && nofile=65536
podman=(podman --runtime runc --cgroup-manager cgroupfs --events-backend file)
limits=(--ulimit "nofile=$nofile:$nofile" --ulimit nproc=4096:4096)

debian_base_images_make() {  # debian_base_images_make AREA
  local rootfs=$1/rootfs sources
  mkdir -p "$1"
  sources=/etc/apt/sources.list.d/debian.sources
  [ -f "$sources" ] || sources=/etc/apt/sources.list
  rm -rf "$rootfs"
  # The merged-usr hook makes /usr merged itself, as debian:12 is, without the
  # usrmerge package (and the whole of perl that it pulls in). The apt settings are
  # what the official images add to a minbase system: no .deb files kept, no
  # translations.
  nice -n 10 mmdebstrap --quiet --variant=minbase --format=directory \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --customize-hook='printf "%s\n" "DPkg::Post-Invoke { \"rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true\"; };" "APT::Update::Post-Invoke { \"rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true\"; };" "Dir::Cache::pkgcache \"\";" "Dir::Cache::srcpkgcache \"\";" > "$1/etc/apt/apt.conf.d/docker-clean"' \
    --customize-hook='echo "Acquire::Languages \"none\";" > "$1/etc/apt/apt.conf.d/docker-no-languages"' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/log/apt/* "$1"/var/log/dpkg.log' \
    bookworm "$rootfs" "$sources" >"$1/mmdebstrap.log" 2>&1 \
    || { tail -30 "$1/mmdebstrap.log"; die "mmdebstrap failed (log: $1/mmdebstrap.log)"; }
  tar -C "$rootfs" --numeric-owner -c . | "${podman[@]}" import --quiet --change 'CMD ["bash"]' - docker.io/library/debian:12 >/dev/null
  # slim: the same system without documentation, manuals and translations, which
  # dpkg also leaves out of every package installed later.
  cat > "$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
CFG
  find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$rootfs"/usr/share/{man,groff,info,lintian,linda,locale}/*
  tar -C "$rootfs" --numeric-owner -c . | "${podman[@]}" import --quiet --change 'CMD ["bash"]' - docker.io/library/debian:12-slim >/dev/null
  rm -rf "$rootfs"
}

debian_base_images() {  # debian_base_images AREA
  if [ "${CASA_IMAGE_BASE_REBUILD:-0}" = 1 ] || ! "${podman[@]}" image exists docker.io/library/debian:12 \
     || ! "${podman[@]}" image exists docker.io/library/debian:12-slim; then
    local tb; tb=$(date +%s); debian_base_images_make "$1"; ok "made with mmdebstrap in $(( $(date +%s) - tb )) s"
  else
    ok "already in podman's storage"
  fi
}
