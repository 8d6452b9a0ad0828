#include "course/scene_table.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace impulse::course {

SceneTable& SceneTable::operator<<(double x) {
  if (!header_done_) throw std::logic_error(file_name_ + ": a number in the header");
  if (has_number_ || !text_.empty()) throw std::logic_error(file_name_ + ": two values in one cell (missing ',')");
  has_number_ = true;
  number_ = x;
  return *this;
}

SceneTable& SceneTable::operator<<(char c) {
  if (!header_done_) {
    // Header: names separated by ',' and ended by '\n'.
    if (c == ',' || c == '\n') {
      columns_.push_back({text_, false, {}, {}});
      text_.clear();
      if (c == '\n') header_done_ = true;
    } else {
      text_ += c;
    }
    return *this;
  }
  if (c == ',') {
    end_cell();
  } else if (c == '\n') {
    end_cell();
    end_row();
  } else {
    if (has_number_) throw std::logic_error(file_name_ + ": text after a number in one cell (missing ',')");
    text_ += c;
  }
  return *this;
}

SceneTable& SceneTable::operator<<(const char* s) {
  for (; *s; ++s) *this << *s;
  return *this;
}

void SceneTable::end_cell() {
  if (cell_ >= columns_.size())
    throw std::logic_error(file_name_ + ": row " + std::to_string(rows_) + " has more cells than the header");
  SceneColumn& col = columns_[cell_];
  const bool blank = !has_number_ && text_.empty();
  if (!blank && !has_number_ && !col.is_text) {
    // The first text cell makes it a text column; the blanks seen so far (NaN) become "".
    for (double x : col.numbers)
      if (!std::isnan(x)) throw std::logic_error(file_name_ + ": column " + col.name + " mixes numbers and text");
    col.is_text = true;
    col.texts.assign(col.numbers.size(), "");
    col.numbers.clear();
  }
  if (col.is_text) {
    if (has_number_) throw std::logic_error(file_name_ + ": column " + col.name + " mixes text and numbers");
    col.texts.push_back(text_);
  } else {
    col.numbers.push_back(has_number_ ? number_ : std::numeric_limits<double>::quiet_NaN());
  }
  ++cell_;
  has_number_ = false;
  text_.clear();
}

void SceneTable::end_row() {
  if (cell_ != columns_.size())
    throw std::logic_error(file_name_ + ": row " + std::to_string(rows_) + " has " + std::to_string(cell_) +
                           " cells, the header " + std::to_string(columns_.size()));
  cell_ = 0;
  ++rows_;
}

void SceneTable::write_csv(std::ostream& os) const {
  if (cell_ != 0 || has_number_ || !text_.empty() || !header_done_)
    throw std::logic_error(file_name_ + ": unfinished row");
  os.precision(17);
  for (const std::string& n : notes_) os << "# " << n << '\n';
  for (std::size_t c = 0; c < columns_.size(); ++c) os << (c ? "," : "") << columns_[c].name;
  os << '\n';
  for (std::size_t r = 0; r < rows_; ++r) {
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      if (c) os << ',';
      const SceneColumn& col = columns_[c];
      if (col.is_text)
        os << col.texts[r];
      else if (!std::isnan(col.numbers[r]))
        os << col.numbers[r];
    }
    os << '\n';
  }
}

std::ostringstream& SceneOutput::text(const std::string& file_name) {
  for (const SceneTable& t : tables_)
    if (t.file_name() == file_name) throw std::logic_error("scene output: two files named " + file_name);
  for (const auto& t : texts_)
    if (t.first == file_name) throw std::logic_error("scene output: two files named " + file_name);
  texts_.emplace_back(file_name, std::ostringstream{});
  return texts_.back().second;
}

SceneTable& SceneOutput::table(const std::string& file_name) {
  for (const SceneTable& t : tables_)
    if (t.file_name() == file_name) throw std::logic_error("scene output: two tables named " + file_name);
  for (const auto& t : texts_)
    if (t.first == file_name) throw std::logic_error("scene output: two files named " + file_name);
  tables_.emplace_back(file_name);
  return tables_.back();
}

void SceneOutput::write_csv_files(const std::string& dir) const {
  std::filesystem::create_directories(dir);
  for (const SceneTable& t : tables_) {
    const std::filesystem::path path = std::filesystem::path(dir) / t.file_name();
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write " + path.string());
    t.write_csv(f);
    if (!f) throw std::runtime_error("cannot write " + path.string());
  }
  for (const auto& [name, text] : texts_) {
    const std::filesystem::path path = std::filesystem::path(dir) / name;
    std::ofstream f(path);
    f << text.str();
    if (!f) throw std::runtime_error("cannot write " + path.string());
  }
}

}  // namespace impulse::course
