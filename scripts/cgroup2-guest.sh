#!/usr/bin/env bash
# A Debian 12 guest with systemd on the unified cgroup hierarchy (cgroup v2),
# for testing the sandbox on a cgroup-v2 host from any Linux machine: QEMU
# with TCG (software emulation; no /dev/kvm needed, and the kvm of some
# hosted machines cannot run Debian's kernel), built from Debian's packages
# only. ../shared/spec/env-probe.md ("A cgroup-v2 guest for tests") has the
# facts this follows and the times measured.
#
#   cgroup2-guest.sh image        build the image unless cached; print its directory
#   cgroup2-guest.sh boot SHARE   boot it with SHARE as /mnt/host: the guest runs
#                                 SHARE/run.sh as root (its output to SHARE/run.log,
#                                 its exit status to SHARE/run.status), then powers
#                                 off; the serial console goes to SHARE/console.log
#
# The guest has a user "tester" (uid 1000) whose systemd user manager runs
# from boot (lingering), so that run.sh can run commands under user@1000's
# delegation (cpu, memory, pids). The image is cached under
# ${XDG_CACHE_HOME:-~/.cache}/adaptbench/guest/<digest of this script>, so
# any change here builds a new one and removes the old. Building needs root,
# mmdebstrap, busybox-static, e2fsprogs and Debian's archive; booting needs
# qemu-system-x86.
set -euo pipefail

self=$(readlink -f "$0")
cache=${XDG_CACHE_HOME:-$HOME/.cache}/adaptbench/guest

# What the in-guest suite needs: systemd with logind and the user manager
# (user@.service, dbus for systemd-run --user), kmod for the 9p modules,
# python3 for the jobs the tests run, procps for debugging.
include=systemd,systemd-sysv,udev,dbus,dbus-user-session,libpam-systemd,kmod,python3,procps

# The kernel modules the guest needs: the initramfs's (the virtio disk and
# ext4, in load order) and the rootfs's (9p over virtio for the share).
initrd_modules=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci
  virtio_blk crc32c_generic jbd2 mbcache crc16 ext4)
module_dirs=(kernel/drivers/virtio kernel/drivers/block kernel/fs kernel/net/9p kernel/lib kernel/crypto)

die() { echo "cgroup2-guest: $*" >&2; exit 1; }

# hook_kernel ROOT OUT (an mmdebstrap customize hook): download the kernel
# package linux-image-amd64 depends on with the rootfs's apt and unpack it
# into OUT, instead of installing it (the rootfs needs only some modules).
hook_kernel() {
  local root=$1 out=$2 pkg
  pkg=$(chroot "$root" apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -1)
  [ -n "$pkg" ] || die "no linux-image package that linux-image-amd64 depends on"
  chroot "$root" sh -c "cd /var/tmp && apt-get download -q $pkg"
  dpkg-deb -x "$root"/var/tmp/"$pkg"_*.deb "$out/kernel"
  rm -f "$root"/var/tmp/*.deb
}

# configure ROOT: the user, the mounts and the unit that runs the payload.
configure() {
  local root=$1
  chroot "$root" useradd -m -u 1000 -s /bin/bash tester
  mkdir -p "$root/var/lib/systemd/linger" "$root/mnt/host"
  touch "$root/var/lib/systemd/linger/tester"
  echo cgroup2-guest >"$root/etc/hostname"
  # fsck pass 0: else systemd waits for dev-vda.device.
  cat >"$root/etc/fstab" <<'EOF'
/dev/vda / ext4 rw 0 0
host0 /mnt/host 9p trans=virtio,version=9p2000.L,msize=512000,nofail 0 0
EOF
  cat >"$root/etc/systemd/system/adaptbench-payload.service" <<'EOF'
[Unit]
Description=run /mnt/host/run.sh, then power off
After=mnt-host.mount systemd-logind.service systemd-user-sessions.service user@1000.service
Requires=mnt-host.mount

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'if [ -x /mnt/host/run.sh ]; then /mnt/host/run.sh >/mnt/host/run.log 2>&1; echo $? >/mnt/host/run.status; else echo "no /mnt/host/run.sh" >/mnt/host/run.log; echo 127 >/mnt/host/run.status; fi'
ExecStopPost=/bin/systemctl --no-block poweroff
StandardOutput=journal+console
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
EOF
  chroot "$root" systemctl enable adaptbench-payload.service
  chroot "$root" systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer \
    systemd-tmpfiles-clean.timer
  chroot "$root" passwd -d root >/dev/null
}

# modules ROOT OUT: copy the module subset into the rootfs, index it, and
# make the initramfs.
modules() {
  local root=$1 out=$2 kver src d m
  kver=$(basename "$(echo "$out"/kernel/lib/modules/*)")
  src=$out/kernel/lib/modules/$kver
  cp "$out/kernel/boot/vmlinuz-$kver" "$out/vmlinuz"
  mkdir -p "$root/lib/modules/$kver"
  cp "$src"/modules.order "$src"/modules.builtin* "$root/lib/modules/$kver/"
  for d in "${module_dirs[@]}"; do
    mkdir -p "$root/lib/modules/$kver/$(dirname "$d")"
    cp -a "$src/$d" "$root/lib/modules/$kver/$d"
  done
  chroot "$root" depmod -a "$kver"

  local initrd=$out/initrd
  mkdir -p "$initrd"/{bin,dev,proc,sys,newroot,lib/modules}
  cp /bin/busybox "$initrd/bin/busybox"
  for m in "${initrd_modules[@]}"; do
    local f
    f=$(find "$src" -name "$m.ko*" | head -1)
    [ -n "$f" ] || die "module $m not in the kernel package"
    cp "$f" "$initrd/lib/modules/"
  done
  cat >"$initrd/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in ${initrd_modules[*]}; do insmod /lib/modules/\$m.ko* 2>/dev/null || true; done
i=0
while [ ! -b /dev/vda ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done
mount -t ext4 -o rw /dev/vda /newroot || { echo "initramfs: cannot mount /dev/vda"; poweroff -f; }
umount /sys /proc
mount --move /dev /newroot/dev
exec switch_root /newroot /sbin/init
EOF
  chmod +x "$initrd/init"
  (cd "$initrd" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1 >"$out/initrd.img")
  rm -rf "$initrd" "$out/kernel"
  echo "$kver" >"$out/kernel-version"
}

build() {
  local dir=$1 tmp=$1.tmp.$$
  [ "$(id -u)" = 0 ] || die "building the image needs root (mmdebstrap --mode=root); build it once as root"
  for t in mmdebstrap busybox mke2fs; do
    command -v "$t" >/dev/null || die "$t not found: apt-get install mmdebstrap busybox-static e2fsprogs"
  done
  rm -rf "$tmp"
  mkdir -p "$tmp"
  trap 'rm -rf "$tmp"' EXIT
  local start=$SECONDS
  # In a mount namespace of its own: the rootfs's /proc, /sys and /dev
  # mounts that mmdebstrap makes while it installs are then not the host's,
  # where a test binary running meanwhile (exectest.Main) would find them
  # at its end and fail for mounts "left behind"; and they go with the
  # namespace if the build is killed.
  unshare --mount --propagation private mmdebstrap --quiet --variant=minbase --mode=root --format=directory --include="$include" \
    --customize-hook="'$self' hook-kernel \"\$1\" '$tmp'" \
    bookworm "$tmp/root" http://deb.debian.org/debian
  echo "cgroup2-guest: rootfs in $((SECONDS - start)) s" >&2
  configure "$tmp/root"
  modules "$tmp/root" "$tmp"
  mke2fs -q -t ext4 -L root -d "$tmp/root" "$tmp/rootfs.ext4" 2G
  rm -rf "$tmp/root"
  # A new image replaces the old ones (each is some 400 MB).
  find "$cache" -mindepth 1 -maxdepth 1 -type d ! -name "$(basename "$tmp")" -exec rm -rf {} +
  mv "$tmp" "$dir"
  trap - EXIT
  echo "cgroup2-guest: image built in $((SECONDS - start)) s" >&2
}

image() {
  local digest dir
  digest=$(sed '/^# Booting: not part of the image/q' "$self" | sha256sum | cut -c1-16)
  dir=$cache/$digest
  mkdir -p "$cache"
  exec 9>"$cache/lock"
  flock 9
  [ -f "$dir/rootfs.ext4" ] || build "$dir" >&2
  echo "$dir"
}

# Booting: not part of the image (changes below do not rebuild it).

boot() {
  local share dir
  share=$(readlink -f "$1")
  [ -d "$share" ] || die "no directory $1"
  command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found: apt-get install qemu-system-x86"
  dir=$(image)
  # -cpu qemu64: with "max" the kernel and glibc pick AVX paths that TCG
  # emulates slowly (boot about twice as long). snapshot=on keeps the
  # cached image pristine; panic=-1 and -no-reboot end QEMU on poweroff or
  # a panic. TCG has no steal time: on a busy host the guest charges a
  # descheduled vCPU's time to the task it was running, so CPU times
  # measured in the guest grow with the host's load (-icount, which would
  # count instructions instead, booted too slowly to use: no login prompt
  # after a minute of QEMU's CPU time).
  exec qemu-system-x86_64 -accel tcg,thread=multi -cpu qemu64 -smp 2 -m 2048 \
    -kernel "$dir/vmlinuz" -initrd "$dir/initrd.img" \
    -append "console=ttyS0 panic=-1 quiet systemd.unified_cgroup_hierarchy=1 systemd.show_status=0" \
    -drive "file=$dir/rootfs.ext4,if=virtio,format=raw,snapshot=on" \
    -virtfs "local,path=$share,mount_tag=host0,security_model=none,id=host0" \
    -display none -monitor none -serial "file:$share/console.log" -nic none -no-reboot </dev/null
}

case ${1:-} in
image) image ;;
boot) [ $# = 2 ] || die "usage: $0 boot SHARE"; boot "$2" ;;
hook-kernel) hook_kernel "$2" "$3" ;;
*) die "usage: $0 image | boot SHARE" ;;
esac
